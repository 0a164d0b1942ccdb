import { randomBytes, webcrypto } from 'node:crypto';
import type * as X509 from '@peculiar/x509';
import type { Deps } from '../../../deps.js';
import * as store from './store.js';

/*
 * The certificate authority that signs the client certificates of CERT API-token applications: one ECDSA P-256
 * key and self-signed certificate per deployment, made on first use and kept in the store (the private key
 * sealed), so that every instance sharing the store signs with the same one.
 */

let loaded: Promise<typeof X509> | undefined;
/** The X.509 library, loaded when a certificate is first read or made: every process that loads the routes need not pay for it. */
function x509Library(): Promise<typeof X509> {
  loaded ??= import('@peculiar/x509').then((x509) => {
    x509.cryptoProvider.set(webcrypto as unknown as Crypto);
    return x509;
  });
  return loaded;
}

const NAME = 'api-clients';
const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const CA_YEARS = 20;
const CLIENT_CERT_DAYS = 825;
const keyIdentity = `certificate-authority:${NAME}`;

interface Authority {
  cert: X509.X509Certificate;
  signingKey: CryptoKey;
}

const yearsFrom = (date: Date, years: number) => new Date(date.getTime() + years * 365 * 86_400_000);

async function createAuthority(nowMs: number): Promise<{ certPem: string; pkcs8: string }> {
  const x509 = await x509Library();
  const keys = (await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify'])) as CryptoKeyPair;
  const notBefore = new Date(nowMs - 60_000);
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomBytes(16)
      .toString('hex')
      .replace(/^[89a-f]/, '1'),
    name: 'CN=Gatehouse API client CA',
    notBefore,
    notAfter: yearsFrom(notBefore, CA_YEARS),
    keys,
    signingAlgorithm: ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey)).toString('base64');
  return { certPem: cert.toString('pem'), pkcs8 };
}

/** This deployment's authority: the one in the store, or a new one kept there first. */
async function authority(deps: Pick<Deps, 'store' | 'secrets' | 'clock'>): Promise<Authority> {
  let row = await store.findAuthority(deps.store.db, NAME);
  if (!row) {
    const made = await createAuthority(deps.clock.now());
    await store.insertAuthorityIfAbsent(deps.store.db, {
      name: NAME,
      cert: made.certPem,
      private_key_sealed: deps.secrets.seal(made.pkcs8, keyIdentity),
      created_at_ms: deps.clock.now(),
    });
    row = (await store.findAuthority(deps.store.db, NAME))!;
  }
  const pkcs8 = Buffer.from(deps.secrets.open(row.private_key_sealed, keyIdentity), 'base64');
  const signingKey = await webcrypto.subtle.importKey('pkcs8', pkcs8, ALGORITHM, false, ['sign']);
  const x509 = await x509Library();
  return { cert: new x509.X509Certificate(row.cert), signingKey: signingKey as unknown as CryptoKey };
}

/** A certificate request read and checked: its PEM parses and its signature is made by the key it names. */
export async function readCsr(pem: string | null | undefined): Promise<X509.Pkcs10CertificateRequest | null> {
  if (!pem || !pem.includes('-----BEGIN CERTIFICATE REQUEST-----')) return null;
  const x509 = await x509Library();
  try {
    const csr = new x509.Pkcs10CertificateRequest(pem.trim());
    return (await csr.verify()) ? csr : null;
  } catch {
    return null;
  }
}

/**
 * A client certificate for the request's key and subject, signed by the authority: for TLS client
 * authentication only. Answered as PEM, the certificate then the authority's (the chain a TLS client presents).
 */
export async function signClientCertificate(
  deps: Pick<Deps, 'store' | 'secrets' | 'clock'>,
  csr: X509.Pkcs10CertificateRequest,
): Promise<{ certPem: string; chainPem: string }> {
  const ca = await authority(deps);
  const x509 = await x509Library();
  const notBefore = new Date(deps.clock.now() - 60_000);
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: randomBytes(16)
      .toString('hex')
      .replace(/^[89a-f]/, '1'),
    subject: csr.subject || 'CN=gatehouse-api-client',
    issuer: ca.cert.subject,
    notBefore,
    notAfter: new Date(notBefore.getTime() + CLIENT_CERT_DAYS * 86_400_000),
    publicKey: csr.publicKey,
    signingKey: ca.signingKey,
    signingAlgorithm: ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.clientAuth]),
      await x509.AuthorityKeyIdentifierExtension.create(ca.cert),
    ],
  });
  const certPem = cert.toString('pem');
  return { certPem, chainPem: `${certPem}\n${ca.cert.toString('pem')}\n` };
}
