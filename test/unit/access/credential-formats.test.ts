import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { canonicalCredentialType, decodeCredential, lookupKey, type CredentialType } from '../../../src/domains/access/credentials/credential-formats.js';
import { isGatehouseError } from '../../../src/errors.js';

// Known-good frames. H10301 10:1093 is the worked example of a reader manual (014088B); the others were
// built bit by bit from the public format definitions by a separate encoder (not this code).
const GOOD: Array<[CredentialType, string, string, { facilityCode?: number; companyId?: number; cardNumber: number; numBits: number }]> = [
  ['WIEGAND_H10301', '014088B', '10:1093', { facilityCode: 10, cardNumber: 1093, numBits: 26 }],
  ['WIEGAND_H10301', '0b40288', '90:324', { facilityCode: 90, cardNumber: 324, numBits: 26 }],
  ['WIEGAND_H10301', '1ffffff', '255:65535', { facilityCode: 255, cardNumber: 65535, numBits: 26 }],
  ['WIEGAND_H10304', '104d2df0ab', '1234:456789', { facilityCode: 1234, cardNumber: 456789, numBits: 37 }],
  ['WIEGAND_D10202', '0c978c29c', '100:12345678', { facilityCode: 100, cardNumber: 12345678, numBits: 33 }],
  ['VENDOR_CORP1000_STD_35', '07d0df0aa', '1000:456789', { companyId: 1000, cardNumber: 456789, numBits: 35 }],
  ['VENDOR_CORP1000_STD_48', '8f4240e99762', '1000000:7654321', { companyId: 1000000, cardNumber: 7654321, numBits: 48 }],
];

function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    assert.ok(isGatehouseError(e), String(e));
    assert.equal(e.code, 'INVALID_VALUE');
    return e.message;
  }
  assert.fail('expected a refusal');
}

/** Flips one bit (1-based, as format sheets number them) of a frame given as hex. */
function flip(hex: string, bits: number, bit: number): string {
  return (BigInt(`0x${hex}`) ^ (1n << BigInt(bits - bit))).toString(16).padStart(hex.length, '0');
}

describe('Wiegand credential formats', () => {
  for (const [type, hex, value, fields] of GOOD) {
    it(`decodes ${type} ${hex} as ${value}`, () => {
      const d = decodeCredential({ type, hexValue: hex });
      assert.equal(d.value, value);
      assert.equal(d.lowercaseHexValue, hex.toLowerCase().padStart(Math.ceil(fields.numBits / 4), '0'));
      assert.equal(d.numBits, fields.numBits);
      assert.equal(d.cardNumber, fields.cardNumber);
      assert.equal(d.facilityCode, fields.facilityCode ?? null);
      assert.equal(d.companyId, fields.companyId ?? null);
    });

    it(`refuses ${type} ${hex} with any single bit flipped (every data bit is covered by a parity bit)`, () => {
      for (let bit = 1; bit <= fields.numBits; bit++) {
        const message = refusal(() => decodeCredential({ type, hexValue: flip(hex, fields.numBits, bit) }));
        assert.match(message, new RegExp(`^hexValue: ${type} .*parity.* does not match$`), `bit ${bit}: ${message}`);
      }
    });
  }

  it('names the H10301 parity bit that fails', () => {
    assert.equal(
      refusal(() => decodeCredential({ type: 'WIEGAND_H10301', hexValue: flip('014088b', 26, 1) })),
      'hexValue: WIEGAND_H10301 leading even parity (bit 1, over bits 2-13) does not match',
    );
    assert.equal(
      refusal(() => decodeCredential({ type: 'WIEGAND_H10301', hexValue: flip('014088b', 26, 26) })),
      'hexValue: WIEGAND_H10301 trailing odd parity (bit 26, over bits 14-25) does not match',
    );
  });

  it('reads a little-endian hex byte by byte, last first', () => {
    assert.equal(decodeCredential({ type: 'WIEGAND_H10301', hexValue: '8b081400', littleEndian: true }).value, '10:1093');
    assert.match(
      refusal(() => decodeCredential({ type: 'WIEGAND_H10301', hexValue: '14088', littleEndian: true })),
      /whole bytes/,
    );
  });

  it('takes numValueBits as the frame length, and refuses one that is not the format', () => {
    assert.equal(decodeCredential({ type: 'WIEGAND_H10301', hexValue: '14088b', numValueBits: 26 }).value, '10:1093');
    assert.equal(
      refusal(() => decodeCredential({ type: 'WIEGAND_H10301', hexValue: '14088b', numValueBits: 32 })),
      'numValueBits: WIEGAND_H10301 values are 26 bits, not 32',
    );
  });

  it('refuses a value wider than the frame', () => {
    assert.equal(
      refusal(() => decodeCredential({ type: 'WIEGAND_H10301', hexValue: '414088b' })),
      'hexValue: more than 26 bits for WIEGAND_H10301',
    );
  });

  it('refuses hex that is not hexadecimal', () => {
    assert.equal(
      refusal(() => decodeCredential({ type: 'WIEGAND_H10301', hexValue: '01408xz' })),
      'hexValue: must be hexadecimal digits (0-9, a-f)',
    );
  });
});

describe('other credential formats', () => {
  it('decodes WIEGAND_64BIT_RAW to its decimal number, up to 64 bits', () => {
    const d = decodeCredential({ type: 'WIEGAND_64BIT_RAW', hexValue: 'FFFFFFFFFFFFFFFF' });
    assert.equal(d.value, '18446744073709551615');
    assert.equal(d.lowercaseHexValue, 'ffffffffffffffff');
    assert.equal(decodeCredential({ type: 'WIEGAND_64BIT_RAW', hexValue: '1f' }).lowercaseHexValue, '000000000000001f');
    assert.equal(
      refusal(() => decodeCredential({ type: 'WIEGAND_64BIT_RAW', hexValue: '1ffffffffffffffff' })),
      'hexValue: more than 64 bits for WIEGAND_64BIT_RAW',
    );
    assert.match(
      refusal(() => decodeCredential({ type: 'WIEGAND_64BIT_RAW', hexValue: '1f', numValueBits: 26 })),
      /64 bits, not 26/,
    );
  });

  it('takes a card serial number of 4, 7, 8 or 10 bytes', () => {
    assert.equal(decodeCredential({ type: 'STANDARD_CSN', hexValue: '04A1B2C3D4E5F6' }).value, '04a1b2c3d4e5f6');
    assert.equal(decodeCredential({ type: 'PLATFORM_SECURE_CSN', hexValue: 'DEADBEEF' }).numBits, 32);
    assert.equal(decodeCredential({ type: 'STANDARD_CSN', hexValue: 'c3b2a104', littleEndian: true }).value, '04a1b2c3');
    assert.match(
      refusal(() => decodeCredential({ type: 'STANDARD_CSN', hexValue: 'a1b2c3' })),
      /card serial number of 4, 7, 8, 10 bytes/,
    );
    assert.match(
      refusal(() => decodeCredential({ type: 'STANDARD_CSN', hexValue: 'a1b2c3d4e' })),
      /card serial number/,
    );
  });

  it('takes a mobile credential of whole bytes', () => {
    assert.equal(decodeCredential({ type: 'PLATFORM_SECURE_MOBILE', hexValue: '00112233445566778899aabbccddeeff' }).numBits, 128);
    assert.match(
      refusal(() => decodeCredential({ type: 'PLATFORM_SECURE_MOBILE', hexValue: 'abc' })),
      /4 to 32 whole bytes/,
    );
  });

  it('holds a PIN as its digits only', () => {
    const d = decodeCredential({ type: 'PIN_CODE', hexValue: '012345' });
    assert.equal(d.value, '012345');
    assert.equal(d.lookupKey, 'pin:012345');
    assert.equal(
      refusal(() => decodeCredential({ type: 'PIN_CODE', hexValue: '12a4' })),
      'hexValue: a PIN_CODE is 4 to 12 digits (0-9) only',
    );
    assert.match(
      refusal(() => decodeCredential({ type: 'PIN_CODE', hexValue: '123' })),
      /4 to 12 digits/,
    );
  });

  it('keeps a CUSTOM value as hex of numValueBits bits', () => {
    assert.equal(decodeCredential({ type: 'CUSTOM', hexValue: 'ABC', numValueBits: 20 }).lowercaseHexValue, '00abc');
    assert.equal(decodeCredential({ type: 'CUSTOM', hexValue: 'ABC' }).numBits, 12);
    assert.match(
      refusal(() => decodeCredential({ type: 'CUSTOM', hexValue: 'fff', numValueBits: 8 })),
      /more than 8 bits/,
    );
  });

  it("accepts the reference catalogue's type names as aliases", () => {
    assert.equal(canonicalCredentialType('RHOMBUS_SECURE_CSN'), 'PLATFORM_SECURE_CSN');
    assert.equal(canonicalCredentialType('RHOMBUS_SECURE_MOBILE'), 'PLATFORM_SECURE_MOBILE');
    assert.equal(canonicalCredentialType('HID_CORP1000_STD_35'), 'VENDOR_CORP1000_STD_35');
    assert.equal(canonicalCredentialType('HID_CORP1000_STD_48'), 'VENDOR_CORP1000_STD_48');
    assert.equal(canonicalCredentialType('WIEGAND_H10301'), 'WIEGAND_H10301');
    assert.match(
      refusal(() => canonicalCredentialType('MAGSTRIPE')),
      /not a credential type/,
    );
  });

  it('matches a presented hex whatever its leading zeros or case', () => {
    assert.equal(lookupKey(null, '0014088B'), lookupKey('WIEGAND_H10301', '14088b'));
    assert.equal(lookupKey(null, '000'), 'hex:0');
    assert.notEqual(lookupKey('PIN_CODE', '1234'), lookupKey(null, '1234'));
  });
});
