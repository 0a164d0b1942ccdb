import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from './config.js';

export interface TlsMaterial {
  cert: string;
  key: string;
}

/** A self-signed certificate for localhost and the loopback addresses, valid for a year. */
export async function generateSelfSigned(commonName = 'localhost'): Promise<TlsMaterial> {
  // Loaded when a certificate is made (once per data dir): its X.509 libraries are a fifth of the server's load time.
  const { generate } = await import('selfsigned');
  const pems = await generate([{ name: 'commonName', value: commonName }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notAfterDate: new Date(Date.now() + 365 * 24 * 3600 * 1000),
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true, clientAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
          { type: 7, ip: '::1' },
        ],
      },
    ],
  });
  return { cert: pems.cert, key: pems.private };
}

/**
 * The certificate of the TLS listeners: the configured files, or a self-signed one generated into the
 * data dir on first start and reused after.
 */
export async function loadOrCreateTls(config: Pick<Config, 'tlsCertFile' | 'tlsKeyFile' | 'dataDir'>): Promise<TlsMaterial> {
  if (config.tlsCertFile && config.tlsKeyFile) {
    return { cert: readFileSync(config.tlsCertFile, 'utf8'), key: readFileSync(config.tlsKeyFile, 'utf8') };
  }
  const dir = join(config.dataDir, 'tls');
  const certFile = join(dir, 'cert.pem');
  const keyFile = join(dir, 'key.pem');
  if (existsSync(certFile) && existsSync(keyFile)) {
    return { cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8') };
  }
  const material = await generateSelfSigned();
  mkdirSync(dir, { recursive: true });
  writeFileSync(keyFile, material.key, { mode: 0o600 });
  writeFileSync(certFile, material.cert);
  return material;
}
