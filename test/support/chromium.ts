import { existsSync } from 'node:fs'
import { chromium, type Browser } from 'playwright-core'

/** Debian's chromium: the browser tests never download one. npm test installs it as root (scripts/prepare-tests.ts). */
export const CHROMIUM = '/usr/bin/chromium'
export const HAS_CHROMIUM = existsSync(CHROMIUM)
/** Without chromium the browser tests skip, visibly, on a developer's machine; in CI the run stops before them. */
export const SKIP_BROWSER = !HAS_CHROMIUM && !process.env['CI']
/** Said in the title of a skipped browser suite. */
export const BROWSER_SKIP_REASON = SKIP_BROWSER
  ? ` (skipped: ${CHROMIUM} is not installed: sudo apt-get install -y chromium)`
  : ''

/** Headless chromium; fails saying how to install it when it is missing (in CI). */
export async function launchChromium(): Promise<Browser> {
  if (!HAS_CHROMIUM)
    throw new Error(`${CHROMIUM} is missing, and CI must run the browser tests: sudo apt-get install -y chromium.`)
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] })
}
