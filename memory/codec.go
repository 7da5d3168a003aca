package memory

import (
	"encoding/json"
	"fmt"

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
	dec *zstd.Decoder
}

func newZcodec() (zcodec, error) {
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedBestCompression), zstd.WithEncoderConcurrency(1),
		zstd.WithZeroFrames(true), zstd.WithEncoderCRC(false), zstd.WithLowerEncoderMem(true))
	if err != nil {
		return zcodec{}, fmt.Errorf("zstd encoder: %w", err)
	}
	dec, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(0), zstd.WithDecoderMaxMemory(maxDecoded))
	if err != nil {
		return zcodec{}, fmt.Errorf("zstd decoder: %w", err)
	}
	return zcodec{enc: enc, dec: dec}, nil
}

// maxDecoded bounds a decompressed value, so a damaged or forged one
// cannot make a turn allocate without bound.
const maxDecoded = 64 << 20

// pack returns js as stored: compressed with its mark when that is
// smaller, else js itself.
func (z zcodec) pack(js []byte) []byte {
	if len(js) < minCompress {
		return js
	}
	out := make([]byte, 1, 1+len(js)/2)
	out[0] = zstdMark
	out = z.enc.EncodeAll(js, out)
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

// encodeMessage is a history message as stored: its JSON, compressed when
// that is smaller (a user message's data block shrinks to a fraction).
func (z zcodec) encodeMessage(m Message) ([]byte, error) {
	js, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	return z.pack(js), nil
}

// decodeMessage reads a message stored by encodeMessage or, as plain
// JSON, by an earlier version.
func (z zcodec) decodeMessage(raw []byte, m *Message) error {
	js, err := z.unpack(raw)
	if err != nil {
		return err
	}
	return json.Unmarshal(js, m)
}
