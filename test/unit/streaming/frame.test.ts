import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FrameError, FrameParser, header, serializeFrame, type StompFrame, type StompVersion } from '../../../src/streaming/frame.js';

const limits = { maxFrameBytes: 1024, maxHeaders: 8 };

function parseAll(input: string | Buffer | Array<string | Buffer>, version: StompVersion = '1.2', lim = limits) {
  const frames: StompFrame[] = [];
  let heartbeats = 0;
  const parser = new FrameParser(lim, { frame: (f) => frames.push(f), heartbeat: () => heartbeats++ });
  parser.version = version;
  for (const chunk of Array.isArray(input) ? input : [input]) parser.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk, 'utf8'));
  return { frames, heartbeats };
}

function parseError(input: string | Buffer, version: StompVersion = '1.2', lim = limits): FrameError {
  try {
    parseAll(input, version, lim);
  } catch (e) {
    assert.ok(e instanceof FrameError, `expected FrameError, got ${e}`);
    return e;
  }
  assert.fail('expected the parser to refuse the input');
}

describe('STOMP frame parser', () => {
  it('parses a frame with LF line endings', () => {
    const { frames } = parseAll('SUBSCRIBE\nid:0\ndestination:/topic/change/abc\n\n\0');
    assert.equal(frames.length, 1);
    assert.equal(frames[0]!.command, 'SUBSCRIBE');
    assert.deepEqual(frames[0]!.headers, [
      ['id', '0'],
      ['destination', '/topic/change/abc'],
    ]);
    assert.equal(frames[0]!.body.length, 0);
  });

  it('accepts CRLF line endings', () => {
    const { frames } = parseAll('SUBSCRIBE\r\nid:0\r\ndestination:/d\r\n\r\n\0');
    assert.deepEqual(frames[0]!.headers, [
      ['id', '0'],
      ['destination', '/d'],
    ]);
  });

  it('keeps the first value of a repeated header', () => {
    const { frames } = parseAll('ACK\nid:1\nid:2\n\n\0');
    assert.equal(header(frames[0]!, 'id'), '1');
  });

  it('keeps whitespace in header values (STOMP 1.2 does not trim)', () => {
    const { frames } = parseAll('ACK\nid: 1 \n\n\0');
    assert.equal(header(frames[0]!, 'id'), ' 1 ');
  });

  it('counts bare EOLs between frames as heart-beats', () => {
    const { frames, heartbeats } = parseAll('\n\r\nACK\nid:1\n\n\0\n\nACK\nid:2\n\n\0\n');
    assert.equal(frames.length, 2);
    assert.equal(heartbeats, 5);
  });

  it('parses several frames in one chunk', () => {
    const { frames } = parseAll('CONNECT\naccept-version:1.2\n\n\0SUBSCRIBE\nid:0\ndestination:/d\n\n\0');
    assert.deepEqual(
      frames.map((f) => f.command),
      ['CONNECT', 'SUBSCRIBE'],
    );
  });

  it('parses a frame split across chunks, byte by byte', () => {
    const text = 'SUBSCRIBE\r\nid:0\r\ncontent-length:3\r\n\r\na\0b\0\n';
    const { frames, heartbeats } = parseAll([...Buffer.from(text)].map((b) => Buffer.from([b])));
    assert.equal(frames.length, 1);
    assert.deepEqual([...frames[0]!.body], [0x61, 0, 0x62]);
    assert.equal(heartbeats, 1);
  });

  it('reads exactly content-length bytes of body, NUL octets included', () => {
    const { frames } = parseAll('SEND\ncontent-length:5\n\n\0a\0b\0\0');
    assert.deepEqual([...frames[0]!.body], [0, 0x61, 0, 0x62, 0]);
  });

  it('reads the body up to the first NUL without content-length', () => {
    const { frames } = parseAll('SEND\n\nhello\0');
    assert.equal(frames[0]!.body.toString(), 'hello');
  });

  it('decodes UTF-8 in headers and counts content-length in bytes', () => {
    const { frames } = parseAll(Buffer.from('SEND\nname:é✓\ncontent-length:3\n\n✓\0'));
    assert.equal(header(frames[0]!, 'name'), 'é✓');
    assert.equal(frames[0]!.body.toString(), '✓');
  });

  it('refuses a body not followed by NUL where content-length ends it', () => {
    assert.match(parseError('SEND\ncontent-length:2\n\nabc\0').detail, /not followed by NUL/);
  });

  it('refuses a content-length that is not a number', () => {
    assert.match(parseError('SEND\ncontent-length:-1\n\n\0').detail, /not a number/);
  });

  it('refuses a command that is not upper-case letters', () => {
    assert.equal(parseError('subscribe\n\n\0').message, 'Malformed frame');
    assert.equal(parseError('{"x":1}\n\n\0').message, 'Malformed frame');
  });

  it('refuses a header line without a colon or with an empty name', () => {
    assert.equal(parseError('ACK\nid\n\n\0').message, 'Malformed header');
    assert.equal(parseError('ACK\n:1\n\n\0').message, 'Malformed header');
  });

  it('refuses more headers than the limit', () => {
    const headers = Array.from({ length: 9 }, (_, i) => `h${i}:v\n`).join('');
    assert.equal(parseError(`ACK\n${headers}\n\0`).message, 'Too many headers');
    assert.equal(parseAll(`ACK\n${headers.slice(5)}\n\0`).frames.length, 1);
  });

  it('refuses a frame larger than the limit, with or without content-length, even before it is complete', () => {
    assert.equal(parseError(`SEND\ncontent-length:2000\n\n`).message, 'Frame too large');
    assert.equal(parseError(`SEND\n\n${'x'.repeat(2000)}`).message, 'Frame too large');
    assert.equal(parseError(`SEND\nh:${'x'.repeat(2000)}`).message, 'Frame too large');
  });

  describe('header escaping', () => {
    it('unescapes \\n, \\c, \\\\ and \\r in STOMP 1.2', () => {
      const { frames } = parseAll('ACK\nid:a\\cb\\nc\\\\d\\re\n\n\0', '1.2');
      assert.equal(header(frames[0]!, 'id'), 'a:b\nc\\d\re');
    });

    it('unescapes \\n, \\c, \\\\ in STOMP 1.1 and refuses \\r there', () => {
      assert.equal(header(parseAll('ACK\nid:a\\cb\\nc\\\\d\n\n\0', '1.1').frames[0]!, 'id'), 'a:b\nc\\d');
      assert.equal(parseError('ACK\nid:a\\rb\n\n\0', '1.1').message, 'Invalid header escape');
    });

    it('leaves backslashes alone in STOMP 1.0', () => {
      assert.equal(header(parseAll('ACK\nid:a\\cb\\t\n\n\0', '1.0').frames[0]!, 'id'), 'a\\cb\\t');
    });

    it('refuses an undefined escape sequence in 1.2', () => {
      assert.equal(parseError('ACK\nid:a\\tb\n\n\0', '1.2').message, 'Invalid header escape');
      assert.equal(parseError('ACK\nid:trailing\\\n\n\0', '1.2').message, 'Invalid header escape');
    });

    it('does not unescape CONNECT and STOMP frames', () => {
      assert.equal(header(parseAll('CONNECT\nlogin:a\\cb\n\n\0', '1.2').frames[0]!, 'login'), 'a\\cb');
      assert.equal(header(parseAll('STOMP\nlogin:a\\cb\n\n\0', '1.2').frames[0]!, 'login'), 'a\\cb');
    });

    it('applies the version set between two frames of the same chunk', () => {
      const frames: StompFrame[] = [];
      const parser = new FrameParser(limits, {
        frame: (f) => {
          frames.push(f);
          parser.version = '1.1';
        },
        heartbeat: () => {},
      });
      parser.version = '1.0';
      parser.push(Buffer.from('ACK\nid:a\\cb\n\n\0ACK\nid:a\\cb\n\n\0'));
      assert.deepEqual(
        frames.map((f) => header(f, 'id')),
        ['a\\cb', 'a:b'],
      );
    });
  });
});

describe('STOMP frame serializer', () => {
  it('writes LF line endings, content-length in bytes and a NUL terminator', () => {
    assert.equal(
      serializeFrame({ command: 'MESSAGE', headers: [['subscription', '0']], body: '{"a":"é"}' }, '1.2'),
      'MESSAGE\nsubscription:0\ncontent-length:10\n\n{"a":"é"}\0',
    );
  });

  it('writes no content-length without a body', () => {
    assert.equal(serializeFrame({ command: 'RECEIPT', headers: [['receipt-id', '7']] }, '1.2'), 'RECEIPT\nreceipt-id:7\n\n\0');
  });

  it('escapes per version', () => {
    const frame = { command: 'MESSAGE', headers: [['subscription', 'a:b\nc\\d\re']] as Array<[string, string]> };
    assert.match(serializeFrame(frame, '1.2'), /subscription:a\\cb\\nc\\\\d\\re\n/);
    assert.match(serializeFrame(frame, '1.1'), /subscription:a\\cb\\nc\\\\d e\n/);
    assert.match(serializeFrame(frame, '1.0'), /subscription:a:b c\\d e\n/);
  });

  it('does not escape CONNECTED, but never lets a value break a line', () => {
    assert.equal(serializeFrame({ command: 'CONNECTED', headers: [['server', 'a:b\nc']] }, '1.2'), 'CONNECTED\nserver:a:b c\n\n\0');
  });

  it('round-trips through the parser, for every version', () => {
    for (const version of ['1.0', '1.1', '1.2'] as const) {
      const value = version === '1.0' ? 'plain:value\\x' : 'a:b\nc\\d';
      const text = serializeFrame({ command: 'MESSAGE', headers: [['k', value]], body: 'x\0y' }, version);
      const { frames } = parseAll(text, version);
      assert.equal(header(frames[0]!, 'k'), value);
      assert.equal(frames[0]!.body.toString(), 'x\0y');
    }
  });
});
