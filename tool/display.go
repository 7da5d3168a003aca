package tool

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxDisplayNameLen bounds a display name, in characters: it fits a chip.
const MaxDisplayNameLen = 40

// DisplayNames are a tool's names for players, by locale ("en", "fr",
// "de", ...): the chat widget shows them on its tool progress chips, where
// a name like gcs_get_boss_details would mean nothing to a player.
type DisplayNames map[string]string

// Validate refuses locales that are not two lowercase letters and names
// that are empty, too long or hold control characters; the error names
// the locale.
func (d DisplayNames) Validate() error {
	for loc, name := range d {
		switch {
		case len(loc) != 2 || loc[0] < 'a' || loc[0] > 'z' || loc[1] < 'a' || loc[1] > 'z':
			return fmt.Errorf("display name locale %q: want two lowercase letters (en, fr, de)", Clip(loc, 20))
		case strings.TrimSpace(name) == "":
			return fmt.Errorf("display name %s: empty", loc)
		case !utf8.ValidString(name):
			return fmt.Errorf("display name %s: not UTF-8", loc)
		case utf8.RuneCountInString(name) > MaxDisplayNameLen:
			return fmt.Errorf("display name %s: longer than %d characters", loc, MaxDisplayNameLen)
		case strings.IndexFunc(name, unicode.IsControl) >= 0:
			return fmt.Errorf("display name %s: holds control characters", loc)
		}
	}
	return nil
}

// DisplayName is the tool's name for players in locale: its display name
// there, else its English one, else one derived from its name
// (DefaultDisplayName).
func (s Spec) DisplayName(locale string) string {
	if n := s.DisplayNames[locale]; n != "" {
		return n
	}
	if n := s.DisplayNames["en"]; n != "" {
		return n
	}
	return DefaultDisplayName(s.Name)
}

// familyPrefixes are the name prefixes of gameassist's tool families.
var familyPrefixes = []string{"gcs", "cache", "rag", "db"}

// verbs start a tool name's action part ("cards_get_card").
var verbs = []string{"get", "find", "search", "list", "lookup", "run", "recommend", "compare", "show", "fetch"}

// DefaultDisplayName derives a readable name from a tool name: without its
// family prefix and leading verb, words separated by spaces, capitalized:
// gcs_get_boss_details becomes "Boss details", cards_get_card "Card",
// card_briefing "Card briefing". Unusual characters are dropped and the
// result is clipped to MaxDisplayNameLen at a word boundary; a name with nothing left gives
// "Tool".
func DefaultDisplayName(name string) string {
	var words []string
	for _, w := range strings.FieldsFunc(strings.ToLower(name), func(r rune) bool { return r == '_' || r == '-' || r == '.' || r == ' ' }) {
		w = strings.Map(func(r rune) rune {
			if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
				return r
			}
			return -1
		}, w)
		if w != "" {
			words = append(words, w)
		}
	}
	if len(words) > 1 && slices.Contains(familyPrefixes, words[0]) {
		words = words[1:]
	}
	// A verb among the first two words starts the action: what comes
	// before it is a prefix (a family or a studio's own), the verb itself
	// says nothing to a player.
	for i := 0; i < min(2, len(words)-1); i++ {
		if slices.Contains(verbs, words[i]) {
			words = words[i+1:]
			break
		}
	}
	if len(words) == 0 {
		return "Tool"
	}
	out := strings.Join(words, " ")
	if r := []rune(out); len(r) > MaxDisplayNameLen {
		out = string(r[:MaxDisplayNameLen])
		if i := strings.LastIndexByte(out, ' '); i > 0 {
			out = out[:i] // at a word boundary
		}
	}
	return strings.ToUpper(out[:1]) + out[1:]
}
