import { fail } from '../../../errors.js';
import { CREDENTIAL_TYPES, type CredentialType } from './credential-formats.js';
import { CORPORATE_1000_35, CORPORATE_1000_48, D10202, encodeWiegand, H10301, H10304, type WiegandLayout } from './wiegand.js';

/**
 * The platform's type-specific credential operations, over the formats of credential-formats.ts: each
 * creator turns its fields into the hex value and type that createAccessControlCredentialByHexValueAndType
 * takes, so that every credential is validated, decoded and stored the one way.
 */

/** The fields a creator is given, by its `fields` kind (the dates and the holder are common to all). */
export interface CreatorFields {
  facilityCode?: number | null;
  siteCode?: number | null;
  companyId?: number | null;
  cardNumber?: number | null;
  value?: string | null;
  credentialValue?: string | null;
  wiegandFormat?: string | null;
}

export type FieldsKind = 'facilityCard' | 'companyCard' | 'raw64' | 'csn' | 'wiegand';

export interface CredentialCreator {
  operationId: string;
  summary: string;
  fields: FieldsKind;
  /** The type it creates; createWiegandCredential's comes from its wiegandFormat. */
  type?: CredentialType;
}

export const CREDENTIAL_CREATORS: readonly CredentialCreator[] = [
  { operationId: 'createWiegandH10301Credential', summary: 'Create a 26-bit H10301 Wiegand credential', fields: 'facilityCard', type: 'WIEGAND_H10301' },
  { operationId: 'createWiegandH10304Credential', summary: 'Create a 37-bit H10304 Wiegand credential', fields: 'facilityCard', type: 'WIEGAND_H10304' },
  { operationId: 'createWiegandD10202Credential', summary: 'Create a 33-bit D10202 Wiegand credential', fields: 'facilityCard', type: 'WIEGAND_D10202' },
  { operationId: 'createWiegand64BitRawCredential', summary: 'Create a raw 64-bit Wiegand credential', fields: 'raw64', type: 'WIEGAND_64BIT_RAW' },
  {
    operationId: 'create35BitCorp1000StdCredential',
    summary: 'Create a 35-bit Corporate 1000 credential',
    fields: 'companyCard',
    type: 'VENDOR_CORP1000_STD_35',
  },
  {
    operationId: 'create48BitCorp1000StdCredential',
    summary: 'Create a 48-bit Corporate 1000 credential',
    fields: 'companyCard',
    type: 'VENDOR_CORP1000_STD_48',
  },
  { operationId: 'createStandardCsnCredential', summary: 'Create a standard card serial number credential', fields: 'csn', type: 'STANDARD_CSN' },
  {
    operationId: 'createRhombusSecureCsnCredential',
    summary: 'Create a platform secure card serial number credential',
    fields: 'csn',
    type: 'PLATFORM_SECURE_CSN',
  },
  { operationId: 'createWiegandCredential', summary: 'Create a Wiegand credential of any format', fields: 'wiegand' },
];

/** What updateWiegandCredential takes: every Wiegand frame format, the Corporate 1000 ones, and CUSTOM. */
const WIEGAND_TYPES = CREDENTIAL_TYPES.filter((t) => t.startsWith('WIEGAND_') || t.startsWith('VENDOR_CORP1000_') || t === 'CUSTOM');

/** The type-specific updates (the validity window) and detail reads, with the types each accepts. */
export const CREDENTIAL_UPDATERS = [
  { operationId: 'updateStandardCsnCredential', types: ['STANDARD_CSN'], what: 'STANDARD_CSN' },
  { operationId: 'updateRhombusSecureCsnCredential', types: ['PLATFORM_SECURE_CSN'], what: 'PLATFORM_SECURE_CSN' },
  { operationId: 'updateRhombusSecureMobileCredential', types: ['PLATFORM_SECURE_MOBILE'], what: 'PLATFORM_SECURE_MOBILE' },
  { operationId: 'updateWiegandCredential', types: WIEGAND_TYPES, what: 'Wiegand' },
] as const satisfies ReadonlyArray<{ operationId: string; types: readonly CredentialType[]; what: string }>;

export const CREDENTIAL_DETAILS = [
  { operationId: 'getStandardCsnCredentialDetails', types: ['STANDARD_CSN'], what: 'STANDARD_CSN' },
  { operationId: 'getRhombusSecureCsnCredentialDetails', types: ['PLATFORM_SECURE_CSN'], what: 'PLATFORM_SECURE_CSN' },
] as const satisfies ReadonlyArray<{ operationId: string; types: readonly CredentialType[]; what: string }>;

/** createWiegandCredential's formats (the catalogue's WiegandFormatEnumType) and the types they create. */
export const WIEGAND_FORMATS = {
  H10301: 'WIEGAND_H10301',
  H10304: 'WIEGAND_H10304',
  D10202: 'WIEGAND_D10202',
  HID_CORP1000_STD_35: 'VENDOR_CORP1000_STD_35',
  HID_CORP1000_STD_48: 'VENDOR_CORP1000_STD_48',
  VENDOR_CORP1000_STD_35: 'VENDOR_CORP1000_STD_35',
  VENDOR_CORP1000_STD_48: 'VENDOR_CORP1000_STD_48',
  WIEGAND_64BIT_RAW: 'WIEGAND_64BIT_RAW',
  CUSTOM: 'CUSTOM',
} as const satisfies Record<string, CredentialType>;

const LAYOUTS: Partial<Record<CredentialType, WiegandLayout>> = {
  WIEGAND_H10301: H10301,
  WIEGAND_H10304: H10304,
  WIEGAND_D10202: D10202,
  VENDOR_CORP1000_STD_35: CORPORATE_1000_35,
  VENDOR_CORP1000_STD_48: CORPORATE_1000_48,
};

function required<T>(value: T | null | undefined, field: string): T {
  if (value === null || value === undefined) throw fail('INVALID_VALUE', `${field}: is required`);
  return value;
}

/** A decimal value (a raw format's `value`) as hex, within `maxBits` when given. */
function decimalHex(value: string, maxBits: number | null): string {
  const digits = value.trim();
  if (!/^[0-9]{1,78}$/.test(digits)) throw fail('INVALID_VALUE', 'value: must be a decimal number');
  const n = BigInt(digits);
  if (maxBits !== null && n >> BigInt(maxBits) !== 0n) throw fail('INVALID_VALUE', `value: more than ${maxBits} bits`);
  return n.toString(16);
}

/** The type and hex value a creator's fields stand for (the hex is then validated by its format). */
export function credentialValueOf(creator: CredentialCreator, fields: CreatorFields): { type: CredentialType; hexValue: string } {
  let type = creator.type;
  if (creator.fields === 'wiegand') {
    const format = required(fields.wiegandFormat, 'wiegandFormat');
    type = WIEGAND_FORMATS[format as keyof typeof WIEGAND_FORMATS];
    if (!type) throw fail('INVALID_VALUE', `wiegandFormat: "${format}" is not a Wiegand format`);
  }
  const kind = type!;
  const layout = LAYOUTS[kind];
  if (creator.fields === 'csn') return { type: kind, hexValue: required(fields.credentialValue, 'credentialValue') };
  if (layout) {
    const isCompany = layout.prefix.name === 'company id';
    const prefix = isCompany ? required(fields.companyId, 'companyId') : required(fields.facilityCode ?? fields.siteCode, 'facilityCode');
    const encoded = encodeWiegand(layout, prefix, required(fields.cardNumber, 'cardNumber'));
    if (!encoded.ok) throw fail('INVALID_VALUE', `${kind}: ${encoded.problem}`);
    return { type: kind, hexValue: encoded.frame.value.toString(16).padStart(Math.ceil(layout.bits / 4), '0') };
  }
  const hex = decimalHex(required(fields.value, 'value'), kind === 'WIEGAND_64BIT_RAW' ? 64 : 256);
  return { type: kind, hexValue: kind === 'WIEGAND_64BIT_RAW' ? hex.padStart(16, '0') : hex };
}
