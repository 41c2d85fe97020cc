/** Sets a key taken from the GitLab read (a file path, a branch or tag name) as an own property: `__proto__` and `constructor` are names like any other. */
export function put<T>(record: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
}
