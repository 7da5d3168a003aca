package main

import "testing"

// TestSampleWords: the sample game's effect identifiers are named as the
// game names them in each locale; other words are left alone.
func TestSampleWords(t *testing.T) {
	for _, tc := range []struct{ locale, id, want string }{
		{"en", "decrease_def", "Decrease DEF"},
		{"fr", "decrease_def", "Baisse de DÉF"},
		{"de", "turn_meter_reduce", ""},
	} {
		got, ok := newSampleWords().Words(tc.locale)(tc.id)
		if !ok || got == "" || got == tc.id || (tc.want != "" && got != tc.want) {
			t.Errorf("%s %s = %q, %t; want %q", tc.locale, tc.id, got, ok, tc.want)
		}
	}
	for _, tc := range []struct{ locale, w, want string }{{"fr", "Magic", "Magie"}, {"de", "Attack", "Angriff"}} {
		if got, ok := newSampleWords().Words(tc.locale)(tc.w); !ok || got != tc.want {
			t.Errorf("%s %s = %q, %t; want %q", tc.locale, tc.w, got, ok, tc.want)
		}
	}
	for _, w := range []string{"champion_name", "Kaelith", "Magic"} {
		if got, ok := newSampleWords().Words("en")(w); ok && got == w {
			t.Errorf("English names %q as itself and says it changed it", w)
		} else if w != "Magic" && ok {
			t.Errorf("a word that is not the game's was named %q", got)
		}
	}
}
