/** Types of tests-beside-the-suite.mjs. */
export declare const TESTS_BESIDE_THE_SUITE: string[]
export declare const THEIR_SUPPORT: string[]
