/** The seed the mock starts with when none is given: its state is generated at build time. */
export const DEFAULT_SEED_OPTIONS = { seed: 1, usersPerOrganization: 50 } as const
