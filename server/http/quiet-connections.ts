import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * Lets the server stop at once when a connection is open but carries no request. Node closes a
 * kept-alive connection between requests when the server stops, but not one that has never sent
 * a request (a client's spare or half-open connection, or a slow one on purpose): the server
 * would wait for it until the headers timeout, a minute. When the server is about to close, every
 * connection with no request in progress is closed; those in progress finish as before.
 */
export function closeQuietConnectionsOnStop(app: FastifyInstance): void {
  const busy = new Map<Socket, number>();
  const sockets = new Set<Socket>();
  app.server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => {
      sockets.delete(socket);
      busy.delete(socket);
    });
  });
  app.server.on('request', (request, response) => {
    const socket = request.socket;
    busy.set(socket, (busy.get(socket) ?? 0) + 1);
    response.once('close', () => {
      const left = (busy.get(socket) ?? 1) - 1;
      if (left > 0) busy.set(socket, left);
      else busy.delete(socket);
    });
  });
  // A connection busy now (a live stream, say) is left to end its answer; Node closes it after.
  app.addHook('preClose', async () => {
    for (const socket of sockets) if (!busy.has(socket)) socket.destroy();
  });
}
