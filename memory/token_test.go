package memory_test

import (
	"bytes"
	"encoding/json"
	"regexp"
	"testing"

	"github.com/gameassist/gameassist/memory"
)

func TestNewToken(t *testing.T) {
	tok, hash, err := memory.NewToken()
	if err != nil {
		t.Fatalf("NewToken: %v", err)
	}
	if !regexp.MustCompile(`^[A-Za-z0-9_-]{43}$`).MatchString(tok) {
		t.Errorf("token %q is not 32 bytes of raw URL base64", tok)
	}
	if hash != memory.HashToken(tok) {
		t.Errorf("hash %q != HashToken(token) %q", hash, memory.HashToken(tok))
	}
	tok2, hash2, err := memory.NewToken()
	if err != nil {
		t.Fatalf("NewToken: %v", err)
	}
	if tok2 == tok || hash2 == hash {
		t.Error("two NewToken calls returned the same token")
	}
}

func TestHashToken(t *testing.T) {
	tests := []struct{ name, token, want string }{
		{"abc", "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
		{"empty", "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := memory.HashToken(tt.token); got != tt.want {
				t.Errorf("HashToken(%q) = %s, want %s", tt.token, got, tt.want)
			}
		})
	}
}

func TestCacheKey(t *testing.T) {
	const tool = "gcs_get_champion_details"
	// md5 of `gcs_get_champion_details:{"a":1,"b":{"c":[1,2.50,"x"],"d":"é<&>"},"z":null}`
	// (printf '%s' ... | md5sum).
	const known = "90cddaca2f870b32c26af3b1655fb3ad"
	// md5 of `db_get_ux_details:{}`.
	const empty = "c16020dcdedfaf80f32ca7ff3278e2f9"

	tests := []struct {
		name   string
		tool   string
		params string
		want   string
	}{
		{"canonical", tool, `{"a":1,"b":{"c":[1,2.50,"x"],"d":"é<&>"},"z":null}`, known},
		{"keys reordered", tool, `{"z":null,"b":{"d":"é<&>","c":[1,2.50,"x"]},"a":1}`, known},
		{"whitespace", tool, " {\n \"a\" : 1 ,\t\"b\":{ \"c\" : [ 1 , 2.50 , \"x\" ] , \"d\":\"é<&>\"},\"z\":null}\n", known},
		{"escapes decoded", tool, `{"a":1,"b":{"c":[1,2.50,"x"],"d":"\u00e9\u003c\u0026>"},"z":null}`, known},
		{"empty", "db_get_ux_details", ``, empty},
		{"null", "db_get_ux_details", ` null `, empty},
		{"empty object", "db_get_ux_details", `{ }`, empty},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := memory.CacheKey(tt.tool, json.RawMessage(tt.params))
			if err != nil {
				t.Fatalf("CacheKey: %v", err)
			}
			if got != tt.want {
				t.Errorf("CacheKey = %s, want %s", got, tt.want)
			}
		})
	}

	differ := []struct{ name, a, b string }{
		{"number spelling kept", `{"n":1}`, `{"n":1.0}`},
		{"exponent kept", `{"n":100}`, `{"n":1e2}`},
		{"array order matters", `{"l":[1,2]}`, `{"l":[2,1]}`},
		{"nesting matters", `{"a":{"b":1}}`, `{"a":{"b":"1"}}`},
	}
	for _, tt := range differ {
		t.Run(tt.name, func(t *testing.T) {
			a, errA := memory.CacheKey(tool, json.RawMessage(tt.a))
			b, errB := memory.CacheKey(tool, json.RawMessage(tt.b))
			if errA != nil || errB != nil {
				t.Fatalf("CacheKey: %v, %v", errA, errB)
			}
			if a == b {
				t.Errorf("%s and %s share key %s", tt.a, tt.b, a)
			}
		})
	}

	t.Run("tool name matters", func(t *testing.T) {
		a, _ := memory.CacheKey("a", nil)
		b, _ := memory.CacheKey("b", nil)
		if a == b {
			t.Error("different tools share a key")
		}
	})

	bad := []struct{ name, params string }{
		{"truncated", `{"a":`},
		{"trailing data", `{"a":1} {"b":2}`},
		{"trailing garbage", `{"a":1}x`},
		{"not json", `champion=Aria`},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			if k, err := memory.CacheKey(tool, json.RawMessage(tt.params)); err == nil {
				t.Errorf("CacheKey(%q) = %s, want error", tt.params, k)
			}
		})
	}
}

func FuzzCacheKey(f *testing.F) {
	for _, s := range []string{
		``, `null`, `{}`, `{"a":1}`, `{"b":[1,2,{"c":3.50}],"a":"x"}`, `[1,"a",null]`,
		`{"a":1e400}`, `"str"`, `{"a":{"a":{"a":{}}}}`, `{"a":1}x`, `{"\u00e9":"<>"}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, params string) {
		key, err := memory.CacheKey("t", json.RawMessage(params))
		if err != nil {
			return
		}
		if len(key) != 32 {
			t.Fatalf("key %q is not md5 hex", key)
		}
		// Layout never changes the key.
		var indented bytes.Buffer
		if json.Indent(&indented, []byte(params), "", "  ") == nil {
			k2, err := memory.CacheKey("t", indented.Bytes())
			if err != nil || k2 != key {
				t.Fatalf("indented %q: key %s, %v; want %s", indented.String(), k2, err, key)
			}
		}
		var compact bytes.Buffer
		if json.Compact(&compact, []byte(params)) == nil {
			k3, err := memory.CacheKey("t", compact.Bytes())
			if err != nil || k3 != key {
				t.Fatalf("compact %q: key %s, %v; want %s", compact.String(), k3, err, key)
			}
		}
	})
}
