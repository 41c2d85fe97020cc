// The package's entry as an ES module (dist/index.js): the CommonJS entry's exports (built, this
// import is of dist/index.cjs), so that an import and a require in one process share one core.
export * from './node-entry.js';
