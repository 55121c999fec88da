import { widenCoverageToTheFile } from './coverage-per-file.js'
import { prepareTestFile } from './in-process-api.js'

// vitest runs a setup file before every test file; its imports (the mock among them) load once a worker.
prepareTestFile()
widenCoverageToTheFile()
