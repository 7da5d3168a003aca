package tool_test

import (
	"strings"
	"testing"

	"github.com/gameassist/gameassist/tool"
)

func TestDefaultDisplayName(t *testing.T) {
	tests := []struct{ name, want string }{
		{"gcs_get_boss_details", "Boss details"},
		{"gcs_find_counters_for_boss", "Counters for boss"},
		{"cache_get_champions_list", "Champions list"},
		{"db_get_ux_details", "Ux details"},
		{"rag_semantic_search", "Semantic search"},
		{"cards_get_card", "Card"},
		{"card_briefing", "Card briefing"},
		{"find_tools", "Tools"},
		{"get", "Get"},
		{"gcs", "Gcs"},
		{"__", "Tool"},
		{"", "Tool"},
		{"<script>_alert", "Script alert"},
		{"x_" + strings.Repeat("long_", 20), "X long long long long long long long"},
		{strings.Repeat("y", 50), strings.ToUpper("y") + strings.Repeat("y", 39)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tool.DefaultDisplayName(tt.name)
			if got != tt.want {
				t.Errorf("DefaultDisplayName(%q) = %q, want %q", tt.name, got, tt.want)
			}
			if n := len([]rune(got)); n > tool.MaxDisplayNameLen {
				t.Errorf("%d characters, over %d", n, tool.MaxDisplayNameLen)
			}
		})
	}
}

func TestSpecDisplayName(t *testing.T) {
	sp := tool.Spec{Name: "gcs_get_boss_details", DisplayNames: tool.DisplayNames{"en": "Boss", "fr": "Boss (fiche)"}}
	for _, tt := range []struct{ locale, want string }{
		{"fr", "Boss (fiche)"},
		{"en", "Boss"},
		{"de", "Boss"}, // no German name: English
		{"", "Boss"},
	} {
		if got := sp.DisplayName(tt.locale); got != tt.want {
			t.Errorf("DisplayName(%q) = %q, want %q", tt.locale, got, tt.want)
		}
	}
	bare := tool.Spec{Name: "gcs_get_boss_details"}
	if got := bare.DisplayName("fr"); got != "Boss details" {
		t.Errorf("no display names: %q, want the derived one", got)
	}
}

func TestDisplayNamesValidate(t *testing.T) {
	tests := []struct {
		name  string
		names tool.DisplayNames
		ok    bool
		says  string
	}{
		{"fine", tool.DisplayNames{"en": "Boss", "fr": "Équipement", "de": "Ausrüstung"}, true, ""},
		{"none", nil, true, ""},
		{"long locale", tool.DisplayNames{"eng": "Boss"}, false, `"eng"`},
		{"upper locale", tool.DisplayNames{"EN": "Boss"}, false, `"EN"`},
		{"empty", tool.DisplayNames{"en": "  "}, false, "en: empty"},
		{"too long", tool.DisplayNames{"de": strings.Repeat("ä", tool.MaxDisplayNameLen+1)}, false, "de: longer"},
		{"control", tool.DisplayNames{"fr": "a\u0000b"}, false, "fr: holds control"},
		{"not utf-8", tool.DisplayNames{"en": "\xff"}, false, "en: not UTF-8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.names.Validate()
			if tt.ok != (err == nil) {
				t.Fatalf("Validate() = %v, want ok %v", err, tt.ok)
			}
			if err != nil && !strings.Contains(err.Error(), tt.says) {
				t.Errorf("error %q does not say %q", err, tt.says)
			}
		})
	}
}
