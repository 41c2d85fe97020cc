// How the facade reaches the node:http door without loading it: `node:http` and the server
// module are imported only when a server is started, so the core runs where there is no node.
export interface ListenOptions {
  port?: number;
  host?: string;
}

export interface Server {
  url: string;
  port: number;
  close(): Promise<void>;
}

export type Handler = (request: Request) => Promise<Response>;

export async function startServer(handle: Handler, options: ListenOptions): Promise<Server> {
  const door = await import('./node-server.js');
  return door.startServer(handle, options);
}
