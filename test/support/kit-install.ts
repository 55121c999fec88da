import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readdir, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { execa } from 'execa'
import { ROOT } from './cli-mock-process.js'
import { toolsNodeBin } from '../../scripts/install-node.mjs'

// The kit installed as users install it: from a tarball `npm pack` made, or from git, into a fresh
// project, with the Node (and the npm that comes with it) under test.

const manifest = (await import('../../package.json', { with: { type: 'json' } })).default

export const KIT_VERSION = manifest.version
/** What a project installs beside the kit to use `users-api-kit/msw` and `verify`: the peers' ranges. */
export const PEERS = Object.entries(manifest.peerDependencies).map(([name, range]) => `${name}@${range}`)

export type NodeMajor = 22 | 24

/**
 * The bin folder of Node `major`: this process's own Node for its major version, else `.tools/`, where
 * npm test installs both (scripts/install-node.mjs), else `USERS_API_KIT_NODE<major>` (a bin folder).
 * Undefined when there is none.
 */
export function findNodeBin(major: NodeMajor): string | undefined {
  if (Number(process.versions.node.split('.')[0]) === major) return join(process.execPath, '..')
  const candidates = [toolsNodeBin(major), process.env[`USERS_API_KIT_NODE${major}`]]
  return candidates.find((bin): bin is string => bin !== undefined && existsSync(join(bin, 'node')))
}

/** The environment of a command run with that Node: its bin folder first on PATH, nothing of this run's npm. */
export function envFor(nodeBin: string): Record<string, string | undefined> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)))
  return { ...inherited, PATH: `${nodeBin}:${process.env['PATH'] ?? ''}`, NO_COLOR: '1', FORCE_COLOR: undefined }
}

/** A scratch folder for one test file's installs (removed by the caller). */
export function makeScratch(prefix: string): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix))
}

/**
 * `npm pack` of this clone, as the README says (its prepack and postpack leave prepare out of the packed
 * package.json; npm test built dist/ already): the tarball's path and the files it holds.
 */
export async function packKit(destination: string): Promise<{ tarball: string; files: string[] }> {
  const packed = await execa('npm', ['pack', '--json', '--pack-destination', destination], {
    cwd: ROOT,
    env: envFor(join(process.execPath, '..')),
  })
  const [report] = JSON.parse(packed.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>
  if (!report) throw new Error(`npm pack said nothing: ${packed.stderr}`)
  return { tarball: join(destination, report.filename), files: report.files.map((file) => file.path) }
}

/** A clean clone of this repository (its last commit, nothing untracked), as `git+file://…` for npm. */
export async function cloneKit(destination: string): Promise<string> {
  await execa('git', ['clone', '--quiet', '--no-hardlinks', ROOT, destination])
  return `git+file://${destination}`
}

export interface InstalledProject {
  path: string
  /** npm install's output. */
  output: string
  /** npm's own count: "added N packages". */
  packages: number
  /** `du -sm node_modules`. */
  megabytes: number
}

/** A fresh ESM project with `specs` installed by Node `nodeBin`'s npm, dependencies from npm's cache where it has them. */
export async function installProject(path: string, nodeBin: string, specs: string[]): Promise<InstalledProject> {
  await mkdir(path, { recursive: true })
  await writeFile(join(path, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }))
  const install = await execa('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', ...specs], {
    cwd: path,
    env: envFor(nodeBin),
    all: true,
    reject: false,
  })
  const output = install.all ?? ''
  if (install.exitCode !== 0) throw new Error(`npm install ${specs.join(' ')} failed:\n${output}`)
  const packages = Number(/added (\d+) packages?/.exec(output)?.[1] ?? Number.NaN)
  const du = await execa('du', ['-sm', join(path, 'node_modules')])
  return { path, output, packages, megabytes: Number(du.stdout.split(/\s/)[0]) }
}

/** Every file under `dir` with its size and modification time: two snapshots differ when anything was written. */
export async function snapshotTree(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true })
  const lines = await Promise.all(
    entries.map(async (entry) => {
      const path = join(entry.parentPath, entry.name)
      const info = await stat(path)
      return `${relative(dir, path)}${entry.isDirectory() ? '/' : ` ${info.size} ${info.mtimeMs}`}`
    }),
  )
  return lines.sort()
}
