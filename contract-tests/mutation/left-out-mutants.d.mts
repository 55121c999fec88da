/** Types of left-out-mutants.mjs, for test/left-out-mutants.test.ts. */
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
