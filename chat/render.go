package chat

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/gameassist/gameassist/internal/memo"
	"github.com/gameassist/gameassist/tool"
)

// resultText is a tool result as the model reads it, in a tool message or
// a data block's cached result alike: the envelope without its cache
// duration (a data block says until when a result stays current) and
// without "status" when it is "success" (a failure says "error"), as
// compact JSON in which every list of objects is a table,
// {"columns":[...],"rows":[[...],...]}, when that is shorter, so row lists
// do not repeat their keys. The system prompt tells the model how to read
// a table. With words, every string value that is an identifier the game
// names for players (an effect's "decrease_def") reads as that name.
// Display names are given once, in the session's locale (see
// pruneNames).
func resultText(r tool.Result, locale string, words Words) string {
	return viewText(r.ForLLM(), locale, words)
}

// viewText is resultText of the envelope whose ForLLM text is text.
func viewText(text, locale string, words Words) string {
	raw := []byte(text)
	v, ok := parseFast(raw)
	if !ok {
		var err error
		if v, err = parseOrdered(raw); err != nil {
			return text
		}
	}
	if v.kind != 'o' {
		return text
	}
	v.pruneNames(locale)
	if words != nil {
		v.name(words)
	}
	keys, vals := v.keys[:0:0], v.vals[:0:0]
	for i, k := range v.keys {
		if k == "llm_cache_duration" || k == "status" && string(v.vals[i].lit) == `"success"` {
			continue
		}
		keys, vals = append(keys, k), append(vals, v.vals[i])
	}
	v.keys, v.vals = keys, vals
	var b bytes.Buffer
	v.tabulate().encode(&b)
	return b.String()
}

// jsonValue is a decoded JSON value that keeps its objects' key order:
// an object (keys and vals), an array (vals) or a literal (lit, encoded).
type jsonValue struct {
	kind byte // 'o', 'a' or 'l'
	keys []string
	vals []*jsonValue
	lit  []byte
}

// parseOrdered decodes one JSON value, keeping key order.
func parseOrdered(raw []byte) (*jsonValue, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	v, err := readValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("trailing data after the value")
	}
	return v, nil
}

func readValue(dec *json.Decoder) (*jsonValue, error) {
	t, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t {
	case json.Delim('{'):
		v := &jsonValue{kind: 'o'}
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return nil, err
			}
			key, _ := k.(string)
			val, err := readValue(dec)
			if err != nil {
				return nil, err
			}
			v.keys = append(v.keys, key)
			v.vals = append(v.vals, val)
		}
		_, err := dec.Token() // '}'
		return v, err
	case json.Delim('['):
		v := &jsonValue{kind: 'a'}
		for dec.More() {
			val, err := readValue(dec)
			if err != nil {
				return nil, err
			}
			v.vals = append(v.vals, val)
		}
		_, err := dec.Token() // ']'
		return v, err
	}
	lit, err := marshalLiteral(t)
	return &jsonValue{kind: 'l', lit: lit}, err
}

// maxFastDepth bounds the nesting parseFast reads; deeper values go to
// parseOrdered (encoding/json has its own bound).
const maxFastDepth = 1000

// parseFast is parseOrdered for the JSON tool results are made of, without
// encoding/json's tokenizer: strictly valid JSON whose strings need no
// re-encoding (no escapes nor control characters, valid UTF-8, no U+2028
// or U+2029), so a literal is its input bytes as marshalLiteral would
// write them. Anything else is not read (false): parseOrdered reads it.
// The literals share raw's bytes.
func parseFast(raw []byte) (*jsonValue, bool) {
	p := fastParser{raw: raw, keys: map[string]string{}}
	v, ok := p.value(0)
	if !ok {
		return nil, false
	}
	p.space()
	return v, p.i == len(raw)
}

// fastParser reads one JSON value from raw at i.
type fastParser struct {
	raw []byte
	i   int
	// keys holds each object key once: the rows of a list repeat them.
	keys map[string]string
}

func (p *fastParser) space() {
	for p.i < len(p.raw) {
		switch p.raw[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *fastParser) value(depth int) (*jsonValue, bool) {
	if depth > maxFastDepth {
		return nil, false
	}
	p.space()
	if p.i >= len(p.raw) {
		return nil, false
	}
	switch c := p.raw[p.i]; {
	case c == '{':
		p.i++
		v := &jsonValue{kind: 'o'}
		p.space()
		if p.i < len(p.raw) && p.raw[p.i] == '}' {
			p.i++
			return v, true
		}
		for {
			p.space()
			lit, ok := p.str()
			if !ok {
				return nil, false
			}
			key, ok := p.keys[string(lit[1:len(lit)-1])]
			if !ok {
				key = string(lit[1 : len(lit)-1])
				p.keys[key] = key
			}
			p.space()
			if p.i >= len(p.raw) || p.raw[p.i] != ':' {
				return nil, false
			}
			p.i++
			val, ok := p.value(depth + 1)
			if !ok {
				return nil, false
			}
			v.keys = append(v.keys, key)
			v.vals = append(v.vals, val)
			if more, ok := p.next('}'); !more {
				return v, ok
			}
		}
	case c == '[':
		p.i++
		v := &jsonValue{kind: 'a'}
		p.space()
		if p.i < len(p.raw) && p.raw[p.i] == ']' {
			p.i++
			return v, true
		}
		for {
			val, ok := p.value(depth + 1)
			if !ok {
				return nil, false
			}
			v.vals = append(v.vals, val)
			if more, ok := p.next(']'); !more {
				return v, ok
			}
		}
	case c == '"':
		lit, ok := p.str()
		return &jsonValue{kind: 'l', lit: lit}, ok
	case c == '-' || c >= '0' && c <= '9':
		lit, ok := p.number()
		return &jsonValue{kind: 'l', lit: lit}, ok
	}
	for _, w := range [...]string{"true", "false", "null"} {
		if end := p.i + len(w); end <= len(p.raw) && string(p.raw[p.i:end]) == w {
			p.i = end
			return &jsonValue{kind: 'l', lit: p.raw[p.i-len(w) : p.i]}, true
		}
	}
	return nil, false
}

// next reads what follows a member or an element: a comma (more) or the
// closing delimiter; ok is false when neither comes.
func (p *fastParser) next(closing byte) (more, ok bool) {
	p.space()
	if p.i < len(p.raw) {
		switch p.raw[p.i] {
		case ',':
			p.i++
			return true, true
		case closing:
			p.i++
			return false, true
		}
	}
	return false, false
}

// str reads a string literal that needs no re-encoding, quotes included.
func (p *fastParser) str() ([]byte, bool) {
	if p.i >= len(p.raw) || p.raw[p.i] != '"' {
		return nil, false
	}
	start := p.i
	for i := start + 1; i < len(p.raw); {
		c := p.raw[i]
		switch {
		case c == '"':
			p.i = i + 1
			return p.raw[start:p.i], true
		case c == '\\' || c < 0x20:
			return nil, false
		case c < utf8.RuneSelf:
			i++
		default:
			r, size := utf8.DecodeRune(p.raw[i:])
			if r == utf8.RuneError && size == 1 || r == '\u2028' || r == '\u2029' {
				return nil, false
			}
			i += size
		}
	}
	return nil, false
}

// number reads a number as JSON writes one:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (p *fastParser) number() ([]byte, bool) {
	raw, i := p.raw, p.i
	digits := func() bool {
		start := i
		for i < len(raw) && raw[i] >= '0' && raw[i] <= '9' {
			i++
		}
		return i > start
	}
	if i < len(raw) && raw[i] == '-' {
		i++
	}
	switch {
	case i < len(raw) && raw[i] == '0':
		i++
	case !digits():
		return nil, false
	}
	if i < len(raw) && raw[i] == '.' {
		i++
		if !digits() {
			return nil, false
		}
	}
	if i < len(raw) && (raw[i] == 'e' || raw[i] == 'E') {
		i++
		if i < len(raw) && (raw[i] == '+' || raw[i] == '-') {
			i++
		}
		if !digits() {
			return nil, false
		}
	}
	lit := raw[p.i:i]
	p.i = i
	return lit, true
}

// plainString reports whether s is written by marshalLiteral as itself
// between quotes.
func plainString(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == '"' || c == '\\' {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || r == '\u2028' || r == '\u2029' {
			return false
		}
		i += size
	}
	return true
}

// writeString writes s as marshalLiteral encodes it.
func writeString(b *bytes.Buffer, s string) {
	if plainString(s) {
		b.WriteByte('"')
		b.WriteString(s)
		b.WriteByte('"')
		return
	}
	lit, _ := marshalLiteral(s)
	b.Write(lit)
}

// stringSize is the length of s as marshalLiteral encodes it.
func stringSize(s string) int {
	if plainString(s) {
		return len(s) + 2
	}
	lit, _ := marshalLiteral(s)
	return len(lit)
}

// stringLiteral is s as marshalLiteral encodes it.
func stringLiteral(s string) []byte {
	if plainString(s) {
		return []byte(`"` + s + `"`)
	}
	lit, _ := marshalLiteral(s)
	return lit
}

// size is the length of v's encoding (see encode).
func (v *jsonValue) size() int {
	switch v.kind {
	case 'o':
		n := 2 + max(len(v.keys)-1, 0)
		for i, k := range v.keys {
			n += stringSize(k) + 1 + v.vals[i].size()
		}
		return n
	case 'a':
		n := 2 + max(len(v.vals)-1, 0)
		for _, e := range v.vals {
			n += e.size()
		}
		return n
	default:
		return len(v.lit)
	}
}

// marshalLiteral encodes a literal token as tool results are encoded:
// without HTML escaping.
func marshalLiteral(t json.Token) ([]byte, error) {
	if n, ok := t.(json.Number); ok {
		return []byte(n), nil
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(t); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

var nullValue = &jsonValue{kind: 'l', lit: []byte("null")}

// tabulate turns, inside out, every array of two or more objects into a
// table when the table encodes shorter: columns are the objects' keys in
// the order first seen, a row holds one object's values (null where it
// lacks a key).
func (v *jsonValue) tabulate() *jsonValue {
	for i, c := range v.vals {
		v.vals[i] = c.tabulate()
	}
	if v.kind != 'a' || len(v.vals) < 2 {
		return v
	}
	var cols []string
	at := map[string]int{}
	for _, e := range v.vals {
		if e.kind != 'o' {
			return v
		}
		for _, k := range e.keys {
			if _, ok := at[k]; !ok {
				at[k] = len(cols)
				cols = append(cols, k)
			}
		}
	}
	colVals := make([]*jsonValue, len(cols))
	for i, c := range cols {
		colVals[i] = &jsonValue{kind: 'l', lit: stringLiteral(c)}
	}
	rows := make([]*jsonValue, len(v.vals))
	for i, e := range v.vals {
		row := make([]*jsonValue, len(cols))
		for j := range row {
			row[j] = nullValue
		}
		for j, k := range e.keys {
			row[at[k]] = e.vals[j]
		}
		rows[i] = &jsonValue{kind: 'a', vals: row}
	}
	table := &jsonValue{kind: 'o', keys: []string{"columns", "rows"}, vals: []*jsonValue{
		{kind: 'a', vals: colVals}, {kind: 'a', vals: rows},
	}}
	if table.size() < v.size() {
		return table
	}
	return v
}

// pruneNames leaves out, everywhere in v, the display names the model
// has no use for: an object's "names" (its name per locale, as the game
// data gives display names) keeps only the session's locale, and that
// only when it differs from the object's "name"; the map goes when
// nothing is left. Without a locale, every name that differs stays.
func (v *jsonValue) pruneNames(locale string) {
	for _, c := range v.vals {
		c.pruneNames(locale)
	}
	if v.kind != 'o' {
		return
	}
	name, names := v.field("name"), v.field("names")
	if name == nil || names == nil || name.kind != 'l' || names.kind != 'o' {
		return
	}
	keys, vals := names.keys[:0], names.vals[:0]
	for i, k := range names.keys {
		if c := names.vals[i]; (locale == "" || k == locale) && (c.kind != 'l' || !bytes.Equal(c.lit, name.lit)) {
			keys, vals = append(keys, k), append(vals, c)
		}
	}
	names.keys, names.vals = keys, vals
	if len(keys) > 0 {
		return
	}
	for i, k := range v.keys {
		if k == "names" {
			v.keys = append(v.keys[:i:i], v.keys[i+1:]...)
			v.vals = append(v.vals[:i:i], v.vals[i+1:]...)
			return
		}
	}
}

// maxWord bounds the string values name looks up: the game's words are
// short, and a long value (a description) is never one.
const maxWord = 40

// name replaces, everywhere in v, each string value that is one of the
// game's words (an identifier such as "decrease_def", or a fixed word such
// as an affinity) by its name for players, as words gives it. Only short
// values without escapes are looked up.
func (v *jsonValue) name(words Words) {
	for _, c := range v.vals {
		c.name(words)
	}
	if v.kind != 'l' || len(v.lit) < 3 || len(v.lit) > maxWord+2 || v.lit[0] != '"' || bytes.IndexByte(v.lit, '\\') >= 0 {
		return
	}
	if n, ok := words(string(v.lit[1 : len(v.lit)-1])); ok {
		if lit, err := marshalLiteral(n); err == nil {
			v.lit = lit
		}
	}
}

// encode writes v as compact JSON.
func (v *jsonValue) encode(b *bytes.Buffer) {
	switch v.kind {
	case 'o':
		b.WriteByte('{')
		for i, k := range v.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			writeString(b, k)
			b.WriteByte(':')
			v.vals[i].encode(b)
		}
		b.WriteByte('}')
	case 'a':
		b.WriteByte('[')
		for i, e := range v.vals {
			if i > 0 {
				b.WriteByte(',')
			}
			e.encode(b)
		}
		b.WriteByte(']')
	default:
		b.Write(v.lit)
	}
}

// schemaText is a tool's argument schema as the model reads it, offered
// or described: compact JSON without the keywords that tell the model
// nothing it needs — "additionalProperties": false, "minLength": 1 and
// "maxLength" (the tool refuses unknown or over-long arguments with an
// error that says so). Raw text that is not JSON is returned compacted as
// far as it goes.
func schemaText(raw json.RawMessage) string {
	v, err := parseOrdered(raw)
	if err != nil {
		return compactJSON(raw)
	}
	var b bytes.Buffer
	v.trimSchema().encode(&b)
	return b.String()
}

// trimSchema drops the keywords schemaText leaves out, at every level.
func (v *jsonValue) trimSchema() *jsonValue {
	if v.kind == 'o' {
		keys, vals := v.keys[:0:0], v.vals[:0:0]
		for i, k := range v.keys {
			lit := string(v.vals[i].lit)
			if (k == "additionalProperties" && lit == "false") || (k == "minLength" && lit == "1") || k == "maxLength" && v.vals[i].kind == 'l' {
				continue
			}
			keys, vals = append(keys, k), append(vals, v.vals[i])
		}
		v.keys, v.vals = keys, vals
	}
	for _, c := range v.vals {
		c.trimSchema()
	}
	return v
}

// describedArgs is a described tool's arguments, one line each under the
// tool's line, as a data block describes them:
//
//   - champion_name (string, required): Champion name, e.g. Kaelith.
//   - limit (integer, 1-20, default 5): How many to return.
//
// shorter than the JSON schema and as exact for the keywords tool schemas
// use (type, description, enum, bounds, default, pattern, items, nested
// objects, required, one-of-required). A schema with any other keyword is
// given as JSON (see schemaText).
func describedArgs(raw json.RawMessage) string {
	var b strings.Builder
	if len(bytes.TrimSpace(raw)) == 0 {
		return "  (no arguments)\n"
	}
	v, err := parseOrdered(raw)
	if err != nil || !writeArgs(&b, v, "") {
		return "  arguments: " + schemaText(raw) + "\n"
	}
	if b.Len() == 0 {
		return "  (no arguments)\n"
	}
	return b.String()
}

// field returns an object's member, or nil.
func (v *jsonValue) field(key string) *jsonValue {
	for i, k := range v.keys {
		if k == key {
			return v.vals[i]
		}
	}
	return nil
}

// text is a string literal's value, a number's digits or a literal's JSON.
func (v *jsonValue) text() string {
	var s string
	if v.kind == 'l' && json.Unmarshal(v.lit, &s) == nil {
		return s
	}
	var b bytes.Buffer
	v.encode(&b)
	return b.String()
}

// writeArgs writes the properties of the object schema v, one line each at
// indent, and the object's own rules (which arguments to give); false when
// v uses a keyword it cannot write.
func writeArgs(b *strings.Builder, v *jsonValue, indent string) bool {
	if v.kind != 'o' {
		return false
	}
	var required []string
	var rules []string
	for i, k := range v.keys {
		val := v.vals[i]
		switch k {
		case "type", "properties", "description":
		case "additionalProperties":
			if string(val.lit) != "false" {
				return false
			}
		case "required":
			for _, r := range val.vals {
				required = append(required, r.text())
			}
		case "anyOf", "oneOf":
			var alts []string
			for _, alt := range val.vals {
				r := alt.field("required")
				if alt.kind != 'o' || len(alt.keys) != 1 || r == nil {
					return false
				}
				var names []string
				for _, n := range r.vals {
					names = append(names, n.text())
				}
				alts = append(alts, strings.Join(names, " and "))
			}
			rules = append(rules, "give "+strings.Join(alts, " or "))
		case "minProperties", "maxProperties":
			lo, hi := v.field("minProperties"), v.field("maxProperties")
			if k == "maxProperties" && lo != nil {
				continue // written with minProperties
			}
			switch {
			case lo != nil && hi != nil && lo.text() == hi.text():
				rules = append(rules, "give exactly "+lo.text()+" of these")
			case lo != nil && hi != nil:
				rules = append(rules, "give "+lo.text()+" to "+hi.text()+" of these")
			case lo != nil:
				rules = append(rules, "give at least "+lo.text()+" of these")
			default:
				rules = append(rules, "give at most "+hi.text()+" of these")
			}
		default:
			return false
		}
	}
	if t := v.field("type"); t != nil && t.text() != "object" {
		return false
	}
	props := v.field("properties")
	if props != nil {
		if props.kind != 'o' {
			return false
		}
		for i, name := range props.keys {
			p := props.vals[i]
			if p.kind != 'o' {
				return false
			}
			attrs, ok := argAttrs(p)
			if !ok {
				return false
			}
			if slices.Contains(required, name) {
				attrs = append([]string{attrs[0], "required"}, attrs[1:]...)
			}
			b.WriteString(indent + "  - " + name + " (" + strings.Join(attrs, ", ") + ")")
			if d := p.field("description"); d != nil {
				b.WriteString(": " + oneLine(d.text()))
			}
			b.WriteString("\n")
			if p.field("properties") != nil && !writeArgs(b, p, indent+"  ") {
				return false
			}
		}
	}
	if len(rules) > 0 {
		b.WriteString(indent + "  (" + strings.Join(rules, "; ") + ")\n")
	}
	return true
}

// argAttrs lists what an argument's schema says besides its description
// and nested properties: its type first; false for a keyword it cannot
// write.
func argAttrs(p *jsonValue) ([]string, bool) {
	typ := "any"
	if t := p.field("type"); t != nil {
		typ = t.text()
	}
	attrs := []string{typ}
	bound := func(lo, hi *jsonValue, unit string) {
		switch {
		case lo != nil && hi != nil:
			attrs = append(attrs, lo.text()+"-"+hi.text()+unit)
		case lo != nil:
			attrs = append(attrs, "at least "+lo.text()+unit)
		case hi != nil:
			attrs = append(attrs, "at most "+hi.text()+unit)
		}
	}
	for i, k := range p.keys {
		val := p.vals[i]
		switch k {
		case "type", "description", "properties", "required", "anyOf", "oneOf", "minProperties", "maxProperties", "additionalProperties",
			"maximum", "maxLength", "maxItems":
		case "minimum":
			bound(val, p.field("maximum"), "")
		case "minLength":
			if val.text() != "1" {
				bound(val, nil, " characters")
			}
		case "minItems":
			bound(val, p.field("maxItems"), " items")
		case "enum":
			var opts []string
			for _, o := range val.vals {
				var b bytes.Buffer
				o.encode(&b)
				opts = append(opts, b.String())
			}
			attrs = append(attrs, "one of "+strings.Join(opts, ", "))
		case "default":
			var b bytes.Buffer
			val.encode(&b)
			attrs = append(attrs, "default "+b.String())
		case "pattern":
			attrs = append(attrs, "pattern "+val.text())
		case "items":
			it, ok := argAttrs(val)
			if !ok || val.field("properties") != nil || val.field("description") != nil {
				return nil, false
			}
			attrs[0] = "array of " + strings.Join(it, " ")
		default:
			return nil, false
		}
	}
	if p.field("minimum") == nil && p.field("maximum") != nil {
		bound(nil, p.field("maximum"), "")
	}
	if p.field("minItems") == nil && p.field("maxItems") != nil {
		bound(nil, p.field("maxItems"), " items")
	}
	if p.field("properties") != nil {
		if t := p.field("type"); t != nil && t.text() != "object" {
			return nil, false
		}
		attrs[0] = "object"
	}
	for _, k := range []string{"required", "anyOf", "oneOf", "minProperties", "maxProperties", "additionalProperties"} {
		if p.field(k) != nil && p.field("properties") == nil {
			return nil, false
		}
	}
	return attrs, true
}

// schemaMemo remembers each tool schema as the model reads it, offered
// (schemaText) and described (describedArgs), keyed by the schema's bytes:
// a turn offers the same schemas every round, and rendering one decodes
// and re-encodes it. The registry's tools are far fewer than the memo's
// bound (memo.DefaultLen); a tools file reloaded many times with changed
// schemas only starts it again. The zero value is ready; safe for
// concurrent use.
type schemaMemo struct {
	offered memo.Map[string, json.RawMessage]
	desc    memo.Map[string, string]
}

// specs returns specs with their parameters as schemaText renders
// them, for the LLM's tool list (the registry's schemas still check the
// calls), each schema rendered once.
func (m *schemaMemo) specs(specs []tool.Spec) []tool.Spec {
	out := make([]tool.Spec, len(specs))
	for i, sp := range specs {
		if len(sp.Parameters) > 0 {
			r, ok := memo.GetBytes(&m.offered, sp.Parameters)
			if !ok {
				r = json.RawMessage(schemaText(sp.Parameters))
				m.offered.Put(string(sp.Parameters), r)
			}
			sp.Parameters = r
		}
		out[i] = sp
	}
	return out
}

// args is describedArgs, each schema rendered once.
func (m *schemaMemo) args(raw json.RawMessage) string {
	if d, ok := memo.GetBytes(&m.desc, raw); ok {
		return d
	}
	d := describedArgs(raw)
	m.desc.Put(string(raw), d)
	return d
}
