package screens

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestLookup(t *testing.T) {
	data := `{"ChampionConfigId": 1001, "Slot": {"Champion": {"ConfigId": 1002}}, "Team": [1001, {"Id": 7}, [5, 6]],
	          "Name": "Kaelith", "Null": null, "Flag": true, "Float": 1.5, "0": {"1": "key not index"}, "Big": 1e400}`
	m, err := decodeData(json.RawMessage(data))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		path   string
		want   string // JSON of the value; "" when absent
		absent bool
	}{
		{name: "top level", path: "ChampionConfigId", want: "1001"},
		{name: "dotted", path: "Slot.Champion.ConfigId", want: "1002"},
		{name: "object", path: "Slot.Champion", want: `{"ConfigId":1002}`},
		{name: "array index", path: "Team.0", want: "1001"},
		{name: "into array element", path: "Team.1.Id", want: "7"},
		{name: "nested array", path: "Team.2.1", want: "6"},
		{name: "numeric object keys are keys", path: "0.1", want: `"key not index"`},
		{name: "string", path: "Name", want: `"Kaelith"`},
		{name: "null is present", path: "Null", want: "null"},
		{name: "boolean", path: "Flag", want: "true"},
		{name: "number beyond float64 kept as written", path: "Big", want: "1e400"},
		{name: "missing key", path: "Nope", absent: true},
		{name: "missing nested key", path: "Slot.Champion.Level", absent: true},
		{name: "index past the end", path: "Team.3", absent: true},
		{name: "negative index", path: "Team.-1", absent: true},
		{name: "leading zero index", path: "Team.00", absent: true},
		{name: "huge index", path: "Team.99999999999999999999", absent: true},
		{name: "key on an array", path: "Team.Id", absent: true},
		{name: "step into a number", path: "ChampionConfigId.Id", absent: true},
		{name: "step into a string", path: "Name.0", absent: true},
		{name: "step into null", path: "Null.X", absent: true},
		{name: "case matters", path: "championconfigid", absent: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := parseField(tt.path)
			if err != nil {
				t.Fatalf("parseField(%q): %v", tt.path, err)
			}
			v, ok := lookup(m, f.path)
			if ok == tt.absent {
				t.Fatalf("lookup(%q) found=%v, want %v (value %v)", tt.path, ok, !tt.absent, v)
			}
			if tt.absent {
				return
			}
			b, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != tt.want {
				t.Errorf("lookup(%q) = %s, want %s", tt.path, b, tt.want)
			}
		})
	}
}

func TestWholeNumber(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want int64
		ok   bool
	}{
		{name: "integer", in: "1001", want: 1001, ok: true},
		{name: "whole float", in: "1001.0", want: 1001, ok: true},
		{name: "exponent", in: "1.001e3", want: 1001, ok: true},
		{name: "negative", in: "-5", want: -5, ok: true},
		{name: "fraction", in: "1.5"},
		{name: "beyond float precision", in: "1e30"},
		{name: "overflow", in: "1e400"},
		{name: "max int64", in: "9223372036854775807", want: 9223372036854775807, ok: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := wholeNumber(json.Number(tt.in))
			if ok != tt.ok || got != tt.want {
				t.Errorf("wholeNumber(%s) = %d, %v; want %d, %v", tt.in, got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestParseField(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		wantErr string
	}{
		{name: "simple", in: "A"},
		{name: "dotted with index", in: "Team.0.Id"},
		{name: "dash and underscore", in: "a-b_c.d"},
		{name: "empty", in: "", wantErr: "path is empty"},
		{name: "leading dot", in: ".A", wantErr: "empty segment"},
		{name: "trailing dot", in: "A.", wantErr: "empty segment"},
		{name: "space", in: "A B", wantErr: "may only hold"},
		{name: "too long", in: strings.Repeat("a", MaxPathLen+1), wantErr: "longer than"},
		{name: "too many segments", in: strings.TrimSuffix(strings.Repeat("a.", MaxPathSegments+1), "."), wantErr: "more than 32 segments"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseField(tt.in)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("parseField(%q): %v", tt.in, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("parseField(%q) = %v, want an error containing %q", tt.in, err, tt.wantErr)
			}
		})
	}
}
