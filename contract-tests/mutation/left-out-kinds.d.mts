/** Types of left-out-kinds.mjs, for test/contract-suite/left-out-mutants.test.ts. */
/** Variants of some kinds on one line (see the module's comment). */
export interface KindsOnALine {
  file: string
  /** How the line begins, trimmed; once in its file. */
  line: string
  /** Stryker's mutator names, or `all`. */
  mutators: string[]
  reason: string
}
export declare const LEFT_OUT_KINDS: KindsOnALine[]
export declare function linesBeginning(code: string, start: string): number[]
