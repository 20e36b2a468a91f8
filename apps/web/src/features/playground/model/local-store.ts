/** What the playground remembers in this browser: the picked project per organization, the open session per project. */
export const projectKey = (orgId: string) => `playground:project:${orgId}`;
export const currentKey = (projectId: string) => `playground:current:${projectId}`;

export function store(key: string, value: string | null) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // storage unavailable (private mode): the session is still saved server-side
  }
}

export function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}
