// The npm registry this project's machines reach holds only some platforms' builds of a few
// native packages (rollup's), so `npm install` leaves the others out of package-lock.json and
// `npm ci` then refuses the lock as out of sync. This restores an entry, with its os and cpu,
// for every platform package that a locked package lists but the lock lacks; npm skips them
// on other platforms without fetching anything. Run after `npm install` changes the lock.
import { readFileSync, writeFileSync } from 'node:fs';

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8'));
const OS = ['android', 'darwin', 'freebsd', 'linux', 'openbsd', 'openharmony', 'sunos', 'win32', 'aix'];
const added = [];

for (const [path, pkg] of Object.entries(lock.packages)) {
  for (const [name, version] of Object.entries(pkg.optionalDependencies ?? {})) {
    const key = `${path.slice(0, path.lastIndexOf('node_modules/'))}node_modules/${name}`;
    if (lock.packages[key] || lock.packages[`node_modules/${name}`]) continue;
    // Platform packages are named <prefix>-<os>-<cpu>[-<libc or abi>].
    const parts = name.split('/').pop().split('-');
    const i = parts.findIndex((p) => OS.includes(p));
    if (i < 0 || !parts[i + 1]) continue;
    const entry = { version, cpu: [parts[i + 1]], dev: pkg.dev, license: 'MIT', optional: true, os: [parts[i]] };
    if (parts[i] === 'linux') entry.libc = [parts.slice(i + 2).join('-').includes('musl') ? 'musl' : 'glibc'];
    if (!pkg.dev) delete entry.dev;
    lock.packages[key] = entry;
    added.push(name);
  }
}
lock.packages = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : 1)));
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(added.length ? `added ${added.length} platform entries: ${added.join(', ')}` : 'lock file complete');
