import { fail } from '../../../errors.js';
import { CORPORATE_1000_35, CORPORATE_1000_48, D10202, decodeWiegand, H10301, H10304, type WiegandLayout } from './wiegand.js';

/** The specification's credential types. */
export const CREDENTIAL_TYPES = [
  'STANDARD_CSN',
  'PLATFORM_SECURE_CSN',
  'PLATFORM_SECURE_MOBILE',
  'PIN_CODE',
  'WIEGAND_H10301',
  'WIEGAND_H10304',
  'WIEGAND_D10202',
  'WIEGAND_64BIT_RAW',
  'VENDOR_CORP1000_STD_35',
  'VENDOR_CORP1000_STD_48',
  'CUSTOM',
] as const;
export type CredentialType = (typeof CREDENTIAL_TYPES)[number];

/** The reference catalogue's names of the same types, accepted wherever a type is given. */
const CREDENTIAL_TYPE_ALIASES: Record<string, CredentialType> = {
  RHOMBUS_SECURE_CSN: 'PLATFORM_SECURE_CSN',
  RHOMBUS_SECURE_MOBILE: 'PLATFORM_SECURE_MOBILE',
  HID_CORP1000_STD_35: 'VENDOR_CORP1000_STD_35',
  HID_CORP1000_STD_48: 'VENDOR_CORP1000_STD_48',
};

/** The catalogue's name of each type, as answers carry it (its AccessControlCredentialEnumType). */
export const CATALOGUE_CREDENTIAL_TYPE: Record<CredentialType, string> = Object.fromEntries(
  CREDENTIAL_TYPES.map((type) => [type, Object.keys(CREDENTIAL_TYPE_ALIASES).find((name) => CREDENTIAL_TYPE_ALIASES[name] === type) ?? type]),
) as Record<CredentialType, string>;

/** Every accepted spelling of a credential type: the specification's names, then the catalogue's. */
export const CREDENTIAL_TYPE_NAMES: readonly string[] = [...CREDENTIAL_TYPES, ...Object.keys(CREDENTIAL_TYPE_ALIASES)];

export function canonicalCredentialType(name: string): CredentialType {
  if ((CREDENTIAL_TYPES as readonly string[]).includes(name)) return name as CredentialType;
  const alias = CREDENTIAL_TYPE_ALIASES[name];
  if (!alias) throw fail('INVALID_VALUE', `credentialType: "${name}" is not a credential type`);
  return alias;
}

const WIEGAND_LAYOUTS: Partial<Record<CredentialType, WiegandLayout>> = {
  WIEGAND_H10301: H10301,
  WIEGAND_H10304: H10304,
  WIEGAND_D10202: D10202,
  VENDOR_CORP1000_STD_35: CORPORATE_1000_35,
  VENDOR_CORP1000_STD_48: CORPORATE_1000_48,
};

const CSN_BYTES = [4, 7, 8, 10];
const MOBILE_BYTES = { min: 4, max: 32 };
const PIN_DIGITS = { min: 4, max: 12 };
const CUSTOM_MAX_BITS = 256;

export interface CredentialValueInput {
  type: CredentialType;
  hexValue: string;
  littleEndian?: boolean | null;
  numValueBits?: number | null;
}

export interface DecodedCredential {
  /** The decoded value: `facility:card` (or `company:card`) for Wiegand formats, the decimal number for raw 64-bit, the hex otherwise, the digits for a PIN. */
  value: string;
  lowercaseHexValue: string;
  numBits: number;
  facilityCode: number | null;
  companyId: number | null;
  cardNumber: number | null;
  /** What a reader's presentation is matched on (see lookupKey). */
  lookupKey: string;
}

/**
 * What a credential is found by when presented: a PIN by its digits, anything else by its bits, so that the
 * hex a reader reports matches whatever leading zeros it carries.
 */
export function lookupKey(type: CredentialType | null, presented: string): string {
  if (type === 'PIN_CODE') return `pin:${presented}`;
  return `hex:${presented.toLowerCase().replace(/^0+(?=.)/, '')}`;
}

const hexDigits = (bits: number) => Math.ceil(bits / 4);
const toHex = (value: bigint, bits: number) => value.toString(16).padStart(hexDigits(bits), '0');

/** The hex as bytes in wire order: a little-endian hex lists its bytes last first. */
function wireHex(hex: string, littleEndian: boolean): string {
  if (!littleEndian) return hex;
  if (hex.length % 2 !== 0) throw fail('INVALID_VALUE', 'hexValue: a littleEndian value must be whole bytes (an even number of hex digits)');
  return hex.match(/../g)!.reverse().join('');
}

function bitsOf(type: CredentialType, fixed: number, numValueBits: number | null | undefined): number {
  if (numValueBits != null && numValueBits !== fixed) throw fail('INVALID_VALUE', `numValueBits: ${type} values are ${fixed} bits, not ${numValueBits}`);
  return fixed;
}

function fitting(type: CredentialType, value: bigint, bits: number): bigint {
  if (value >> BigInt(bits) !== 0n) throw fail('INVALID_VALUE', `hexValue: more than ${bits} bits for ${type}`);
  return value;
}

function wholeBytes(type: CredentialType, hex: string, allowed: (bytes: number) => boolean, rule: string): DecodedCredential {
  const bytes = hex.length / 2;
  if (!Number.isInteger(bytes) || !allowed(bytes)) throw fail('INVALID_VALUE', `hexValue: a ${type} value is ${rule}`);
  const lower = hex.toLowerCase();
  return {
    value: lower,
    lowercaseHexValue: lower,
    numBits: bytes * 8,
    facilityCode: null,
    companyId: null,
    cardNumber: null,
    lookupKey: lookupKey(type, lower),
  };
}

/**
 * Validates a credential value as its type's format demands and decodes it. Refusals name the rule
 * (`hexValue: WIEGAND_H10301 trailing odd parity (bit 26, over bits 14-25) does not match`).
 */
export function decodeCredential(input: CredentialValueInput): DecodedCredential {
  const { type } = input;
  const given = input.hexValue.trim();
  if (type === 'PIN_CODE') {
    if (!new RegExp(`^[0-9]{${PIN_DIGITS.min},${PIN_DIGITS.max}}$`).test(given)) {
      throw fail('INVALID_VALUE', `hexValue: a PIN_CODE is ${PIN_DIGITS.min} to ${PIN_DIGITS.max} digits (0-9) only`);
    }
    return {
      value: given,
      lowercaseHexValue: given,
      numBits: given.length * 4,
      facilityCode: null,
      companyId: null,
      cardNumber: null,
      lookupKey: lookupKey(type, given),
    };
  }
  if (!/^[0-9a-fA-F]+$/.test(given)) throw fail('INVALID_VALUE', 'hexValue: must be hexadecimal digits (0-9, a-f)');
  const hex = wireHex(given, input.littleEndian ?? false);

  const layout = WIEGAND_LAYOUTS[type];
  if (layout) {
    const bits = bitsOf(type, layout.bits, input.numValueBits);
    const frame = { bits, value: fitting(type, BigInt(`0x${hex}`), bits) };
    const decoded = decodeWiegand(layout, frame);
    if (!decoded.ok) throw fail('INVALID_VALUE', `hexValue: ${type} ${decoded.problem}`);
    const isCompany = layout.prefix.name === 'company id';
    const lowercaseHexValue = toHex(frame.value, bits);
    return {
      value: `${decoded.prefix}:${decoded.card}`,
      lowercaseHexValue,
      numBits: bits,
      facilityCode: isCompany ? null : decoded.prefix,
      companyId: isCompany ? decoded.prefix : null,
      cardNumber: decoded.card,
      lookupKey: lookupKey(type, lowercaseHexValue),
    };
  }
  switch (type) {
    case 'WIEGAND_64BIT_RAW': {
      const bits = bitsOf(type, 64, input.numValueBits);
      const value = fitting(type, BigInt(`0x${hex}`), bits);
      const lowercaseHexValue = toHex(value, bits);
      return {
        value: value.toString(10),
        lowercaseHexValue,
        numBits: bits,
        facilityCode: null,
        companyId: null,
        cardNumber: null,
        lookupKey: lookupKey(type, lowercaseHexValue),
      };
    }
    case 'CUSTOM': {
      const bits = input.numValueBits ?? hex.length * 4;
      if (!Number.isInteger(bits) || bits < 1 || bits > CUSTOM_MAX_BITS)
        throw fail('INVALID_VALUE', `numValueBits: a CUSTOM value is 1 to ${CUSTOM_MAX_BITS} bits`);
      const lowercaseHexValue = toHex(fitting(type, BigInt(`0x${hex}`), bits), bits);
      return {
        value: lowercaseHexValue,
        lowercaseHexValue,
        numBits: bits,
        facilityCode: null,
        companyId: null,
        cardNumber: null,
        lookupKey: lookupKey(type, lowercaseHexValue),
      };
    }
    case 'STANDARD_CSN':
    case 'PLATFORM_SECURE_CSN':
      return wholeBytes(type, hex, (n) => CSN_BYTES.includes(n), `a card serial number of ${CSN_BYTES.join(', ')} bytes (twice as many hex digits)`);
    case 'PLATFORM_SECURE_MOBILE':
      return wholeBytes(type, hex, (n) => n >= MOBILE_BYTES.min && n <= MOBILE_BYTES.max, `${MOBILE_BYTES.min} to ${MOBILE_BYTES.max} whole bytes`);
    default:
      throw fail('INVALID_VALUE', `credentialType: ${type} has no value format`);
  }
}
