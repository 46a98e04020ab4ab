/**
 * undici's connector with the address policy (http.address.deny) applied twice: a host that is an IP
 * literal is checked before connecting and a name's DNS answers are filtered (the policy's lookup),
 * then the connected socket's peer address is checked again, so no request is ever written to a
 * refused address, whatever the URL spelling, DNS rebinding or redirect that led there.
 */
import type { buildConnector } from 'undici';
import { isIP } from 'node:net';
import { bareHost, type AddressPolicy } from './address-policy.js';
import { undiciFetchParts } from './undici-module.js';

export function guardedConnector(policy: AddressPolicy, options: buildConnector.BuildOptions): buildConnector.connector {
  const connect = undiciFetchParts().buildConnector({ ...options, lookup: policy.lookup } as buildConnector.BuildOptions);
  return (opts, callback) => {
    const host = bareHost(opts.hostname);
    if (isIP(host)) {
      try {
        policy.check(host, opts.hostname);
      } catch (err) {
        return callback(err as Error, null);
      }
    }
    connect(opts, (err, socket) => {
      if (err || !socket) return callback(err ?? new Error('no socket'), null);
      try {
        policy.check(socket.remoteAddress ?? '', opts.hostname);
      } catch (denied) {
        socket.destroy();
        return callback(denied as Error, null);
      }
      callback(null, socket);
    });
  };
}
