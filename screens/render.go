package screens

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gameassist/gameassist/tool"
)

// Rendering limits: screen values are player-controlled, so each is cut short
// before it reaches a prompt.
const (
	// MaxValueLen caps one rendered value, in characters, before quoting.
	MaxValueLen = 100
	// maxListItems caps the elements of an array value rendered (and translated).
	maxListItems = 20
	// translatedSuffix marks a placeholder that renders a display name.
	translatedSuffix = "_translated"
	// missingValue renders a declared, optional field that the screen lacks.
	missingValue = "unknown"
)

// Translator turns an entity id (champion, boss, dungeon...) into its display
// name in a locale, so prompt injections name things as the player sees them.
type Translator interface {
	DisplayName(ctx context.Context, id int64, locale string) (string, error)
}

// template is a compiled prompt injection: literal text and placeholders.
type template struct {
	parts []part
}

// part is literal text, or a placeholder when isField is set.
type part struct {
	text       string
	isField    bool
	field      field
	translated bool
}

// compileTemplate parses "{Field}" and "{Field_translated}" placeholders
// ("{{" and "}}" are literal braces) and checks that each names a declared
// field exactly as written in the rule.
func compileTemplate(s string, declared map[string]bool) (*template, error) {
	switch {
	case strings.TrimSpace(s) == "":
		return nil, errors.New("template is empty")
	case len(s) > MaxTemplateLen:
		return nil, fmt.Errorf("template is %d bytes, over the limit of %d", len(s), MaxTemplateLen)
	case !utf8.ValidString(s):
		return nil, errors.New("template is not valid UTF-8")
	}
	for _, c := range s {
		if c != '\n' && unsafeRune(c) {
			return nil, fmt.Errorf("template contains the control or invisible character %U", c)
		}
	}
	t := &template{}
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			t.parts = append(t.parts, part{text: lit.String()})
			lit.Reset()
		}
	}
	for i := 0; i < len(s); {
		switch {
		case strings.HasPrefix(s[i:], "{{"):
			lit.WriteByte('{')
			i += 2
		case strings.HasPrefix(s[i:], "}}"):
			lit.WriteByte('}')
			i += 2
		case s[i] == '}':
			return nil, fmt.Errorf("template has an unmatched '}' at byte %d (write }} for a literal brace)", i)
		case s[i] == '{':
			end := strings.IndexAny(s[i+1:], "{}")
			if end < 0 || s[i+1+end] != '}' {
				return nil, fmt.Errorf("template has an unclosed '{' at byte %d (write {{ for a literal brace)", i)
			}
			name := s[i+1 : i+1+end]
			p, err := placeholder(name, declared)
			if err != nil {
				return nil, err
			}
			flush()
			t.parts = append(t.parts, p)
			i += end + 2
		default:
			lit.WriteByte(s[i])
			i++
		}
	}
	flush()
	return t, nil
}

// placeholder resolves a placeholder name to a declared field; an exact
// declared name wins over the _translated reading.
func placeholder(name string, declared map[string]bool) (part, error) {
	target, translated := name, false
	if strings.HasPrefix(name, PlayerRoot+".") && !declared[name] {
		// The player state needs no declaration: its paths are checked
		// here, and a value missing from a state renders as unknown.
		base, ok := strings.CutSuffix(name, translatedSuffix)
		target, translated = base, ok
	} else if !declared[name] {
		base, ok := strings.CutSuffix(name, translatedSuffix)
		if !ok || !declared[base] {
			return part{}, fmt.Errorf("placeholder {%s} refers to no declared field (declare it in required_fields or as a data tool's json_field)", tool.Clip(name, 100))
		}
		target, translated = base, true
	}
	f, err := parseField(target)
	if err != nil {
		return part{}, fmt.Errorf("placeholder {%s}: %w", tool.Clip(name, 100), err)
	}
	return part{isField: true, field: f, translated: translated}, nil
}

// render fills the template from decoded screen data. Every value is
// sanitized, capped and quoted; a missing optional value renders as unknown.
func (t *template) render(ctx context.Context, data map[string]any, tr Translator, locale string, log *slog.Logger) (string, error) {
	var b strings.Builder
	for _, p := range t.parts {
		if !p.isField {
			b.WriteString(p.text)
			continue
		}
		v, ok := lookup(data, p.field.path)
		if !ok || v == nil {
			b.WriteString(missingValue)
			continue
		}
		if p.translated {
			s, err := translateValue(ctx, v, tr, locale, log)
			if err != nil {
				return "", err
			}
			b.WriteString(quote(s))
			continue
		}
		b.WriteString(renderValue(v))
	}
	return b.String(), nil
}

// translateValue renders the display name of the id in v (or of each id in an
// array); anything that is not an id, or an id the translator cannot name,
// renders as its raw value. It fails only when ctx is done.
func translateValue(ctx context.Context, v any, tr Translator, locale string, log *slog.Logger) (string, error) {
	one := func(x any) (string, error) {
		n, ok := x.(json.Number)
		if !ok {
			return formatValue(x), nil
		}
		id, ok := wholeNumber(n)
		if !ok {
			return formatValue(x), nil
		}
		name, err := tr.DisplayName(ctx, id, locale)
		if err != nil {
			if ctx.Err() != nil {
				return "", fmt.Errorf("screens: translate %d: %w", id, ctx.Err())
			}
			log.LogAttrs(ctx, slog.LevelDebug, "screen value not translated",
				slog.Int64("id", id), slog.String("locale", tool.Clip(locale, 20)), slog.String("error", err.Error()))
			return string(n), nil
		}
		if strings.TrimSpace(name) == "" {
			return string(n), nil
		}
		return name, nil
	}
	list, ok := v.([]any)
	if !ok {
		return one(v)
	}
	names := make([]string, 0, min(len(list), maxListItems))
	for _, x := range list[:min(len(list), maxListItems)] {
		s, err := one(x)
		if err != nil {
			return "", err
		}
		names = append(names, s)
	}
	return strings.Join(names, ", "), nil
}

// formatValue renders a decoded value as plain text before sanitizing:
// arrays as comma-separated items, objects as compact JSON.
func formatValue(v any) string {
	switch x := v.(type) {
	case nil:
		return missingValue
	case string:
		return x
	case json.Number:
		return string(x)
	case bool:
		return strconv.FormatBool(x)
	case []any:
		items := make([]string, 0, min(len(x), maxListItems))
		for _, e := range x[:min(len(x), maxListItems)] {
			items = append(items, formatValue(e))
		}
		return strings.Join(items, ", ")
	default:
		b, err := json.Marshal(x)
		if err != nil {
			return missingValue
		}
		return string(b)
	}
}

// renderValue renders a raw (untranslated) value. Numbers and booleans as
// decoded from JSON can only hold digits, a sign, '.', 'e' or true/false, so
// they are written bare when short; everything else is quoted.
func renderValue(v any) string {
	switch x := v.(type) {
	case json.Number:
		if len(x) <= MaxValueLen {
			return string(x)
		}
	case bool:
		return strconv.FormatBool(x)
	}
	return quote(formatValue(v))
}

// quote makes a player-controlled value inert text: sanitized, capped to
// MaxValueLen characters and wrapped in double quotes it cannot close.
func quote(s string) string {
	return `"` + sanitize(s, MaxValueLen) + `"`
}

// sanitize strips control characters, Unicode format characters (bidi
// overrides such as U+202E, zero-width characters), invalid UTF-8, quotes,
// braces, brackets and angle brackets; turns line breaks and other spaces
// into single spaces; and keeps at most limit characters.
func sanitize(s string, limit int) string {
	var b strings.Builder
	b.Grow(min(len(s), limit*4))
	n := 0
	space := false
	for i := 0; i < len(s) && n < limit; {
		c, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case c == utf8.RuneError && size <= 1:
			continue
		case unicode.IsSpace(c) || c == '\u2028' || c == '\u2029':
			space = n > 0
			continue
		case unsafeRune(c):
			continue
		case c == '"' || c == '`':
			c = '\''
		case strings.ContainsRune(`{}[]<>\`, c):
			continue
		}
		if space {
			if n+1 >= limit {
				break
			}
			b.WriteByte(' ')
			n++
			space = false
		}
		b.WriteRune(c)
		n++
	}
	return b.String()
}

// unsafeRune reports control, format, line and paragraph separator, private
// use and unassigned-surrogate characters: invisible text that can reorder or
// hide what a reader (or a model) sees.
func unsafeRune(c rune) bool {
	return unicode.IsControl(c) || unicode.In(c, unicode.Cf, unicode.Zl, unicode.Zp, unicode.Co, unicode.Cs) ||
		(c >= 0xE0000 && c <= 0xE007F) || c == utf8.RuneError
}
