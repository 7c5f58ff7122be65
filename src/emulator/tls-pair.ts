// A certificate and key are loaded before listening: node's https server accepts an empty certificate or a
// key of another certificate and then fails every handshake, which a user sees only as a client error.
import { createPrivateKey, X509Certificate } from 'node:crypto';

/** What is wrong with a PEM certificate and key, or undefined when they are a usable pair. */
export function checkTlsPair(cert: string | Buffer, key: string | Buffer): { part: 'cert' | 'key'; reason: string } | undefined {
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(cert);
  } catch {
    return { part: 'cert', reason: String(cert).trim() === '' ? 'is empty' : 'is not a PEM certificate' };
  }
  let privateKey;
  try {
    privateKey = createPrivateKey(key);
  } catch {
    return { part: 'key', reason: String(key).trim() === '' ? 'is empty' : 'is not an unencrypted PEM private key' };
  }
  if (certificate.checkPrivateKey(privateKey)) return undefined;
  const keyType = privateKey.asymmetricKeyType?.toUpperCase();
  const certType = certificate.publicKey.asymmetricKeyType?.toUpperCase();
  return { part: 'key', reason: keyType === certType ? 'is the key of another certificate' : `is not the certificate's key (an ${keyType} key for an ${certType} certificate)` };
}
