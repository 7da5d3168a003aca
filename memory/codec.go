package memory

import (
	"bytes"
	"crypto/sha1" //nolint:gosec // sha1 tells list elements apart; it guards nothing.
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"strings"
	"sync"

	"github.com/klauspost/compress/flate"
	"github.com/klauspost/compress/zstd"
)

// Stored values (history messages, shared tool payloads) are written
// compressed when that saves bytes: a zstdMark byte, then the zstd frame
// of the JSON. A value that does not start with zstdMark is plain JSON,
// as the previous versions wrote it, so a rolling upgrade reads both.
// No JSON text starts with this byte.
const zstdMark = 0x01

// minCompress is the size below which a value is stored as plain JSON:
// a zstd frame costs about a dozen bytes, and short texts do not shrink.
const minCompress = 96

// zcodec is a Store's zstd encoder and decoder: both are safe for
// concurrent EncodeAll and DecodeAll and cost memory to build, so a Store
// builds them once.
type zcodec struct {
	enc *zstd.Encoder
	// fast compresses what every turn writes but that is read rarely:
	// exchange records, and the whole forms of messages stored as deltas
	// (stored only when the list changed since the turn's load, or when
	// the delta is not smaller). Its smaller tables cost about half the
	// CPU for 2 % more bytes (literals entropy coded as the other levels
	// do).
	fast *zstd.Encoder
	dec  *zstd.Decoder
	// writers and readers pool the DEFLATE coders of deltas.
	writers, readers *sync.Pool
}

func newZcodec() (zcodec, error) {
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedBetterCompression),
		zstd.WithZeroFrames(true), zstd.WithEncoderCRC(false), zstd.WithLowerEncoderMem(true))
	if err != nil {
		return zcodec{}, fmt.Errorf("zstd encoder: %w", err)
	}
	fast, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithAllLitEntropyCompression(true),
		zstd.WithZeroFrames(true), zstd.WithEncoderCRC(false), zstd.WithLowerEncoderMem(true))
	if err != nil {
		return zcodec{}, fmt.Errorf("zstd encoder: %w", err)
	}
	dec, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(0), zstd.WithDecoderMaxMemory(maxDecoded))
	if err != nil {
		return zcodec{}, fmt.Errorf("zstd decoder: %w", err)
	}
	return zcodec{enc: enc, fast: fast, dec: dec, writers: &sync.Pool{}, readers: &sync.Pool{}}, nil
}

// maxDecoded bounds a decompressed value, so a damaged or forged one
// cannot make a turn allocate without bound.
const maxDecoded = 64 << 20

// pack returns js as stored: compressed with its mark when that is
// smaller, else js itself.
func (z zcodec) pack(js []byte) []byte { return packWith(z.enc, js) }

// packWith is pack with encoder enc.
func packWith(enc *zstd.Encoder, js []byte) []byte {
	if len(js) < minCompress {
		return js
	}
	out := make([]byte, 1, 1+len(js)/2)
	out[0] = zstdMark
	out = enc.EncodeAll(js, out)
	if len(out) >= len(js) {
		return js
	}
	return out
}

// unpack returns the JSON of a stored value written by pack or by a
// version that stored plain JSON.
func (z zcodec) unpack(raw []byte) ([]byte, error) {
	if len(raw) == 0 || raw[0] != zstdMark {
		return raw, nil
	}
	js, err := z.dec.DecodeAll(raw[1:], nil)
	if err != nil {
		return nil, fmt.Errorf("decompress: %w", err)
	}
	return js, nil
}

// History messages are also stored as deltas: a user message's data block
// repeats much of the blocks before it (results shown again, the same
// screen), and an assistant reply the replies before it (the offered tool
// names), which a message compressed alone cannot use. A delta is
// deltaMark, the CRC-32 of its dictionary, then the raw DEFLATE of the
// message's JSON with, as dictionary, the JSON of the messages before it
// in the list back to the last one stored whole (its chain; the last
// maxDict bytes of them). A chain holds at most chainMax messages, so the
// list keeps chainMax messages more than the window and a read of the
// window plus chainMax always starts a chain before the window does.
// Writing a delta needs the chain as the turn's load decoded it (the
// turn's lock carries it) and the list unchanged since: the write names
// the SHA-1 of the last element it saw and finishSrc stores the messages
// whole when the list's last element is another.
const (
	deltaMark = 0x02
	chainMax  = 32
	maxDict   = 16 << 10
	// deltaLevel is the DEFLATE level of deltas (written once, read every
	// turn: decoding speed does not depend on it). From level 7 the writer
	// takes its dictionary by hashing it, where levels 1 to 6 compress it
	// (and throw the result away) for every message: level 7 writes a
	// turn's deltas in less CPU than level 6 did, and smaller.
	deltaLevel = 7
)

// errChain is a delta whose dictionary is not the one it was written with.
var errChain = errors.New("delta does not follow the messages before it")

// chain is the state of a stored history's last chain: how many messages
// it holds, the last maxDict bytes of their JSON, and the SHA-1 (hex) of
// the list's last element. The zero value is no chain: the next message
// is stored whole.
type chain struct {
	n    int
	dict []byte
	last string
}

// push returns the chain after js, stored whole (a new chain) or as a delta.
func (c chain) push(js []byte, whole bool) chain {
	if whole {
		c.n, c.dict = 0, nil
	}
	d := make([]byte, 0, min(len(c.dict)+len(js), maxDict))
	if over := len(c.dict) + len(js) - maxDict; over > 0 {
		if over < len(c.dict) {
			d = append(d, c.dict[over:]...)
			d = append(d, js...)
		} else {
			d = append(d, js[over-len(c.dict):]...)
		}
	} else {
		d = append(append(d, c.dict...), js...)
	}
	return chain{n: c.n + 1, dict: d, last: c.last}
}

// encoded is a turn's messages as encodeMessages stores them.
type encoded struct {
	// whole and after are the messages stored whole and, when the turn's
	// chain was known, after it (nil otherwise).
	whole, after []string
	// next is the chain after the after forms; texts are the messages' JSON.
	next  chain
	texts [][]byte
}

// encodeMessages returns msgs as stored whole and, when c is a chain,
// as stored after it (deltas, or whole where a chain is full or a delta
// would not be smaller). The whole forms of messages that have a delta
// are stored only when the list changed since the turn's load (see
// finishSrc), which a held lock makes rare: when the delta is clearly
// smaller (under a quarter of the JSON: compressed whole, the JSON
// would not get near it), that whole form is the plain JSON, which reads
// the same, and the message is not compressed twice.
func (z zcodec) encodeMessages(msgs []Message, c chain) (encoded, error) {
	return z.newEncoder(c, len(msgs)).addAll(msgs)
}

// addAll adds msgs, the turn's last messages, and returns every message
// added, as stored; the encoder is done.
func (m *msgEncoder) addAll(msgs []Message) (encoded, error) {
	defer m.done()
	for i := range msgs {
		if err := m.add(msgs[i], i+1 < len(msgs)); err != nil {
			return encoded{}, err
		}
	}
	return m.result(), nil
}

// msgEncoder encodes a turn's messages one at a time, as encodeMessages
// does: a Draft encodes the player's message while the model answers and
// the turn's write adds the reply to the same run.
type msgEncoder struct {
	e   encoded
	c   chain
	run deltaRun
	// chained says that the turn's chain was known: the messages have
	// "after" forms.
	chained bool
}

// newEncoder starts encoding up to n messages after chain c.
func (z zcodec) newEncoder(c chain, n int) *msgEncoder {
	m := &msgEncoder{c: c, chained: c.n > 0}
	m.e.whole = make([]string, 0, n)
	m.e.texts = make([][]byte, 0, n)
	if m.chained {
		m.e.after = make([]string, 0, n)
	}
	m.run.z = z
	return m
}

// add encodes msg; more says that another message may follow it.
func (m *msgEncoder) add(msg Message, more bool) error {
	js, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	z := m.run.z
	m.e.texts = append(m.e.texts, js)
	c := m.c
	if !m.chained || c.n >= chainMax {
		w := string(z.pack(js))
		m.e.whole = append(m.e.whole, w)
		if m.chained {
			m.e.after = append(m.e.after, w)
			m.c = c.push(js, true)
			m.run.stop()
		}
		return nil
	}
	// A next message can follow this one in the run when it will be a
	// delta too and this one is short enough that leaving its length out
	// of its dictionary costs little.
	more = more && c.n+1 < chainMax && len(js) <= runMax
	d, err := m.run.delta(js, c.dict, more)
	if err != nil {
		return err
	}
	if len(d) < len(js)/clearDelta {
		m.e.whole = append(m.e.whole, string(js))
		m.e.after = append(m.e.after, string(d))
		m.c = c.push(js, false)
		return nil
	}
	w := string(packWith(z.fast, js))
	m.e.whole = append(m.e.whole, w)
	if len(d) >= len(w) {
		m.e.after = append(m.e.after, w)
		m.c = c.push(js, true)
		m.run.stop()
		return nil
	}
	m.e.after = append(m.e.after, string(d))
	m.c = c.push(js, false)
	return nil
}

// result is the messages added so far, as stored.
func (m *msgEncoder) result() encoded {
	e := m.e
	if len(e.after) == 0 {
		return e
	}
	e.next = m.c
	sum := sha1.Sum([]byte(e.after[len(e.after)-1])) //nolint:gosec // sha1 tells list elements apart; it guards nothing.
	e.next.last = hex.EncodeToString(sum[:])
	return e
}

// done returns the encoder's DEFLATE writer to the pool.
func (m *msgEncoder) done() { m.run.done() }

// clearDelta: a delta under 1/clearDelta of its message's JSON is stored
// without compressing the message whole to compare.
const clearDelta = 4

// deltaRun writes the deltas of a turn's consecutive messages through
// one DEFLATE writer, so the writer takes the chain's dictionary once per
// run instead of once per message (taking it is most of a delta's cost).
// A delta stays what undelta reads: the raw DEFLATE of one message with,
// as dictionary, the last maxDict bytes of the chain before it. A message
// that another follows in the run is ended by a sync flush and an empty
// final block, and the next one's DEFLATE starts after the flush: its
// back-references reach only the bytes the writer was given, which are
// the end of the chain before it, so they must fit in its dictionary. The
// run therefore gives the writer only the last maxDict - len(message)
// bytes of the first message's dictionary when another may follow, and
// starts over when the bytes written no longer fit.
type deltaRun struct {
	z zcodec
	w *flate.Writer
	// buf receives the writer's output; held counts the bytes of the
	// chain the writer holds (its dictionary and the messages written).
	buf  bytes.Buffer
	held int
}

// runMax is the longest message another follows in a run: the run gives
// the writer only the last maxDict - len(message) bytes of its dictionary.
const runMax = 4 << 10

// finalEmpty is an empty final DEFLATE block (fixed Huffman codes): it
// ends the stream of a message whose writer was only flushed.
var finalEmpty = [2]byte{0x03, 0x00}

// delta returns js compressed with dict, the last maxDict bytes of the
// chain before it; more says that the next message may follow it in the
// run.
func (r *deltaRun) delta(js, dict []byte, more bool) ([]byte, error) {
	if r.w == nil || r.held > len(dict) {
		use := dict
		if more && len(js) < maxDict {
			use = use[max(0, len(use)-(maxDict-len(js))):]
		}
		r.buf.Reset()
		if r.w == nil {
			w, _ := r.z.writers.Get().(*flate.Writer)
			if w == nil {
				var err error
				if w, err = flate.NewWriterDict(&r.buf, deltaLevel, use); err != nil {
					return nil, err
				}
			} else {
				w.ResetDict(&r.buf, use)
			}
			r.w = w
		} else {
			r.w.ResetDict(&r.buf, use)
		}
		r.held = len(use)
	}
	from := r.buf.Len()
	if _, err := r.w.Write(js); err != nil {
		return nil, err
	}
	r.held += len(js)
	var err error
	if more {
		err = r.w.Flush()
	} else {
		err = r.w.Close()
	}
	if err != nil {
		return nil, err
	}
	body := r.buf.Bytes()[from:]
	out := make([]byte, 5, 5+len(body)+len(finalEmpty))
	out[0] = deltaMark
	binary.BigEndian.PutUint32(out[1:5], crc32.ChecksumIEEE(dict))
	out = append(out, body...)
	if more {
		out = append(out, finalEmpty[:]...)
	} else {
		r.held = maxDict + 1 // closed: the next delta starts over
	}
	return out, nil
}

// stop ends the run: the next delta starts a new one (the message before
// it was stored whole, so its dictionary is not what the writer holds).
func (r *deltaRun) stop() { r.held = maxDict + 1 }

// done returns the run's writer to the pool.
func (r *deltaRun) done() {
	if r.w != nil {
		r.z.writers.Put(r.w)
		r.w = nil
	}
}

// undelta decodes a delta written with dict, appended to dst; src is
// the caller's reader to reuse.
func (z zcodec) undelta(dst []byte, raw string, dict []byte, src *strings.Reader) ([]byte, error) {
	if len(raw) < 5 || raw[0] != deltaMark {
		return nil, errors.New("not a delta")
	}
	if binary.BigEndian.Uint32([]byte(raw[1:5])) != crc32.ChecksumIEEE(dict) {
		return nil, errChain
	}
	src.Reset(raw[5:])
	r, _ := z.readers.Get().(io.ReadCloser)
	if r == nil {
		r = flate.NewReaderDict(src, dict)
	} else if err := r.(flate.Resetter).Reset(src, dict); err != nil {
		return nil, err
	}
	defer z.readers.Put(r)
	at := len(dst)
	for {
		if len(dst) == cap(dst) {
			dst = append(dst, 0)[:len(dst)]
		}
		n, err := r.Read(dst[len(dst):cap(dst)])
		dst = dst[:len(dst)+n]
		if len(dst)-at > maxDecoded {
			return nil, errors.New("delta too large")
		}
		if errors.Is(err, io.EOF) {
			return dst, nil
		}
		if err != nil {
			return nil, fmt.Errorf("inflate: %w", err)
		}
	}
}

// decodeHistory decodes a stored history read with its chainMax extra
// messages: the messages (the last max of them) and the last chain. Deltas
// before the first message stored whole belong to a chain that starts
// before the read and are left out (they are older than the window).
func (z zcodec) decodeHistory(raw []string, max, summary int) ([]Message, chain, error) {
	out, _, c, err := z.decodeAll(raw, summary)
	if err != nil {
		return nil, chain{}, err
	}
	if len(out) > max {
		out = out[len(out)-max:]
	}
	return out, c, nil
}

// decodeAll decodes the stored history raw: its messages but the leading
// deltas of a chain that starts before raw (skip counts them), and the
// last chain. Messages the summary covers are decoded without their data
// blocks.
func (z zcodec) decodeAll(raw []string, summary int) (msgs []Message, skip int, c chain, err error) {
	texts, skip, c, err := z.decodeTexts(raw, 0, chain{}, false)
	if err != nil {
		return nil, 0, chain{}, err
	}
	msgs, err = parseTurnHistory(texts[skip:], summary)
	if err != nil {
		return nil, 0, chain{}, err
	}
	return msgs, skip, c, nil
}

// decodeTexts returns the JSON of stored history messages, texts[i] that
// of raw[i], and the last chain. When started, raw follows the messages
// of chain c (at is the position of raw[0] in the list, for errors);
// otherwise the leading deltas, whose chain starts before raw, are left
// out: skip counts them and their texts are nil.
//
// The messages' JSON is decoded into one buffer, each delta inflated
// straight after the messages it follows: a delta's dictionary is the end
// of that buffer, not a copy.
func (z zcodec) decodeTexts(raw []string, at int, c chain, started bool) (texts [][]byte, skip int, _ chain, _ error) {
	ends := make([]int, len(raw))
	all := append([]byte(nil), c.dict...) // the chain's dictionary, then the messages
	start := 0                            // where the last chain starts in all
	first := len(all)
	var src strings.Reader
	dict := func() []byte { return all[len(all)-min(len(all)-start, maxDict):] }
	for i, r := range raw {
		from := len(all)
		var err error
		if len(r) > 0 && r[0] == deltaMark {
			if !started {
				skip++
				ends[i] = from
				continue
			}
			if all, err = z.undelta(all, r, dict(), &src); err != nil {
				return nil, 0, chain{}, fmt.Errorf("stored message %d: %w", at+i, err)
			}
			c.n++
		} else {
			if len(r) > 0 && r[0] == zstdMark {
				all, err = z.dec.DecodeAll([]byte(r[1:]), all)
			} else {
				all = append(all, r...)
			}
			if err != nil {
				return nil, 0, chain{}, fmt.Errorf("stored message %d: decompress: %w", at+i, err)
			}
			start, c.n, started = from, 1, true
		}
		ends[i] = len(all)
	}
	texts = make([][]byte, len(raw))
	for i, end := range ends {
		from := first
		if i > 0 {
			from = ends[i-1]
		}
		if i >= skip {
			texts[i] = all[from:end:end]
		}
	}
	if !started {
		return texts, skip, chain{}, nil
	}
	c.dict = bytes.Clone(dict())
	if len(raw) > 0 {
		sum := sha1.Sum([]byte(raw[len(raw)-1])) //nolint:gosec // sha1 tells list elements apart; it guards nothing.
		c.last = hex.EncodeToString(sum[:])
	}
	return texts, skip, c, nil
}
