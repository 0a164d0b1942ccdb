/** The record of an API key made by submitApiTokenApplication: how it was asked for (the key itself is in api_keys). */
export interface ApiTokenApplicationsTable {
  /** The api_keys id of the key it made. */
  token_uuid: string;
  org_uuid: string;
  display_name: string | null;
  auth_type: 'API_TOKEN' | 'CERT';
  client_type: string;
  permission_group_uuid: string | null;
  /** The certificate request (PEM) of a CERT application, and the certificate Gatehouse's CA signed for it. */
  csr: string | null;
  cert: string | null;
  created_at_ms: number;
}

/** A certificate authority of this deployment: its certificate (PEM) and its private key (PKCS#8), sealed. */
export interface CertificateAuthoritiesTable {
  name: string;
  cert: string;
  private_key_sealed: string;
  created_at_ms: number;
}

declare module '../../../store/schema.js' {
  interface DB {
    api_token_applications: ApiTokenApplicationsTable;
    certificate_authorities: CertificateAuthoritiesTable;
  }
}
