/** Types of left-out-mutants.mjs, for test/contract-suite/left-out-mutants.test.ts. */
export interface Listing {
  reason: string
  /** By file: names of declarations (see the module's comment). */
  names?: Record<string, string[]>
  /** By file: how each statement's source begins. */
  statements?: Record<string, string[]>
}
export declare const LEFT_OUT: Listing[]
export declare function declaredName(path: unknown): string | undefined
export declare function statementSource(path: unknown): string | undefined
export declare const strykerPlugins: [{ value: { shouldIgnore(path: unknown): string | undefined } }]
