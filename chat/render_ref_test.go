package chat

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
)

// refViewText is viewText as it was written first, over encoding/json's
// tokenizer: the reference the faster parser and encoder are checked
// against (FuzzViewText).
func refViewText(text, locale string, words Words) string {
	v, err := refParse([]byte(text))
	if err != nil || v.kind != 'o' {
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
	refEncode(refTabulate(v), &b)
	return b.String()
}

func refParse(raw []byte) (*jsonValue, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	v, err := refRead(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("trailing data after the value")
	}
	return v, nil
}

func refRead(dec *json.Decoder) (*jsonValue, error) {
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
			val, err := refRead(dec)
			if err != nil {
				return nil, err
			}
			v.keys = append(v.keys, key)
			v.vals = append(v.vals, val)
		}
		_, err := dec.Token()
		return v, err
	case json.Delim('['):
		v := &jsonValue{kind: 'a'}
		for dec.More() {
			val, err := refRead(dec)
			if err != nil {
				return nil, err
			}
			v.vals = append(v.vals, val)
		}
		_, err := dec.Token()
		return v, err
	}
	lit, err := refLiteral(t)
	return &jsonValue{kind: 'l', lit: lit}, err
}

func refLiteral(t json.Token) ([]byte, error) {
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

func refTabulate(v *jsonValue) *jsonValue {
	for i, c := range v.vals {
		v.vals[i] = refTabulate(c)
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
		lit, _ := refLiteral(c)
		colVals[i] = &jsonValue{kind: 'l', lit: lit}
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
	var a, b bytes.Buffer
	refEncode(v, &a)
	refEncode(table, &b)
	if b.Len() < a.Len() {
		return table
	}
	return v
}

func refEncode(v *jsonValue, b *bytes.Buffer) {
	switch v.kind {
	case 'o':
		b.WriteByte('{')
		for i, k := range v.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			lit, _ := refLiteral(k)
			b.Write(lit)
			b.WriteByte(':')
			refEncode(v.vals[i], b)
		}
		b.WriteByte('}')
	case 'a':
		b.WriteByte('[')
		for i, e := range v.vals {
			if i > 0 {
				b.WriteByte(',')
			}
			refEncode(e, b)
		}
		b.WriteByte(']')
	default:
		b.Write(v.lit)
	}
}

// viewSeeds are envelopes as ForLLM writes them and JSON that is not:
// tables, nesting, escapes, Unicode, U+2028, invalid UTF-8, numbers of
// every form, literals, whitespace, trailing data, broken text.
var viewSeeds = []string{
	`{"status":"success","message":"2 champions.","data":{"total":2,"champions":[{"id":1001,"name":"Kaelith","tags":["aoe"],"skills":[{"slot":1,"name":"Cut","effect":"decrease_def"},{"slot":2,"name":"Wake <x> & y"}]},{"id":1002,"name":"Vonoelle","tags":[],"skills":[]}],"sparse":[{"a":1},{"b":2}],"one":[{"id":1}]},"llm_cache_duration":3,"llm_instruction":"Quote exactly."}`,
	`{"status":"error","message":"Unknown champion.","data":null,"llm_cache_duration":0,"error_details":"no such name","guidance":"Check the spelling."}`,
	`{"message":"esc \"q\" \\ \n \u00e9 \u2028 \ud83d\ude00 \ud800","data":{"k\"ey":[{"a\n":1},{"a\n":2}],"\u0041":"\u003c"}}`,
	"{\"message\":\"raw \u2028 and \u2029 and \x7f and \xff\xfe\",\"data\":[{\"é\":\"ü\"},{\"é\":\"🐉\"}]}",
	`{"data":[-0,0.5,1e10,1E+2,-1.25e-3,123456789012345678901234567890,true,false,null]}`,
	`{"data":[01]}`, `{"data":[1.]}`, `{"data":[.5]}`, `{"data":[-]}`, `{"data":[1e]}`, `{"data":[+1]}`, `{"data":[tru]}`,
	" \t\n{ \"a\" : [ { \"b\" : 1 } , { \"b\" : 2 } ] , \"c\" : { } , \"d\" : [ ] } \r\n",
	`{"a":1} x`, `{"a":1}{}`, `{"a":1,}`, `{"a" 1}`, `{1:2}`, `[1,2]`, `"s"`, `12`, ``, `{`, `{"a":[1,2}`, `{"a":"x`,
	`{"a":"tab	here"}`, `{"data":{"list":[{"x":1,"y":[{"z":1},{"z":2}]},{"y":[{"z":3},{"w":4}],"x":2}]}}`,
	`{"data":[{"a":"aaaaaaaaaaaa","b":"bbbbbbbbbbbbbbbbbb"},{"a":"c","b":"d"}]}`, `{"data":[{"a":1},{"a":2}]}`, `{"data":[{},{}]}`,
	`{"data":[{"a":1},2]}`, `{"status":"success"}`, `{"status":"partial","llm_cache_duration":1}`,
	strings.Repeat(`{"a":`, 1200) + "1" + strings.Repeat("}", 1200),
	`{"data":[{"effect":"decrease_def"},{"effect":"Magic"},{"effect":"decrease_def\u0020"}]}`,
}

// TestViewTextMatchesReference: the renderer gives what the reference
// (encoding/json's tokenizer) gives, on every seed, with and without
// words.
func TestViewTextMatchesReference(t *testing.T) {
	for _, text := range viewSeeds {
		for _, words := range []Words{nil, frenchEffects{}.Words("fr")} {
			if got, want := viewText(text, "", words), refViewText(text, "", words); got != want {
				t.Errorf("viewText(%.80q):\n got %s\nwant %s", text, got, want)
			}
		}
	}
}

// TestViewTextFastPath: a result as tools write them is read without
// encoding/json's tokenizer, in under half the reference's allocations; a
// string with an escape is left to the tokenizer.
func TestViewTextFastPath(t *testing.T) {
	if _, ok := parseFast([]byte(viewSeeds[0])); !ok {
		t.Fatal("a plain result was not read by parseFast")
	}
	if _, ok := parseFast([]byte(viewSeeds[2])); ok {
		t.Error("parseFast read a string with escapes")
	}
	words := frenchEffects{}.Words("fr")
	fast := testing.AllocsPerRun(20, func() { viewText(viewSeeds[0], "", words) })
	ref := testing.AllocsPerRun(20, func() { refViewText(viewSeeds[0], "", words) })
	if fast*2 > ref {
		t.Errorf("%v allocations, the reference %v", fast, ref)
	}
}

// FuzzViewText: on any text the renderer gives what the reference gives.
func FuzzViewText(f *testing.F) {
	for _, s := range viewSeeds {
		f.Add(s)
	}
	words := frenchEffects{}.Words("fr")
	f.Fuzz(func(t *testing.T, text string) {
		if got, want := viewText(text, "", words), refViewText(text, "", words); got != want {
			t.Fatalf("viewText(%q):\n got %s\nwant %s", text, got, want)
		}
	})
}

// BenchmarkViewText renders a champion's details, about 1.5 KB, afresh.
func BenchmarkViewText(b *testing.B) {
	text := viewSeeds[0]
	text = strings.Replace(text, `"skills":[{`, `"skills":[{"desc":"`+strings.Repeat("Deals damage to all enemies. ", 20)+`",`, 1)
	for _, impl := range []struct {
		name string
		fn   func(string, string, Words) string
	}{{"fast", viewText}, {"reference", refViewText}} {
		b.Run(impl.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				impl.fn(text, "fr", frenchEffects{}.Words("fr"))
			}
		})
	}
}
