package toolsfile

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gameassist/gameassist/tool"
)

// statementParams returns the distinct :named parameters of a single SQL
// statement in order of first use. It skips string literals, quoted
// identifiers and comments, and refuses what a tools file may not use:
// positional (?), @ or $ parameters, and a second statement after a ';'.
func statementParams(stmt string) ([]string, error) {
	var names []string
	seen := map[string]bool{}
	ended := false // a ';' was seen: only whitespace and comments may follow
	for i := 0; i < len(stmt); {
		c := stmt[i]
		switch {
		case c == '\'' || c == '"' || c == '`':
			end := closeQuote(stmt, i+1, c)
			if end < 0 {
				return nil, fmt.Errorf("unterminated %c quote at byte %d", c, i)
			}
			if ended {
				return nil, errors.New("only one statement is allowed (text follows the ';')")
			}
			i = end + 1
		case c == '[':
			end := strings.IndexByte(stmt[i+1:], ']')
			if end < 0 {
				return nil, fmt.Errorf("unterminated [ at byte %d", i)
			}
			if ended {
				return nil, errors.New("only one statement is allowed (text follows the ';')")
			}
			i += end + 2
		case c == '-' && strings.HasPrefix(stmt[i:], "--"):
			end := strings.IndexByte(stmt[i:], '\n')
			if end < 0 {
				i = len(stmt)
			} else {
				i += end + 1
			}
		case c == '/' && strings.HasPrefix(stmt[i:], "/*"):
			end := strings.Index(stmt[i+2:], "*/")
			if end < 0 {
				i = len(stmt) // SQLite accepts an unterminated block comment at the end
			} else {
				i += end + 4
			}
		case c == ';':
			ended = true
			i++
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			i++
		case ended:
			return nil, errors.New("only one statement is allowed (text follows the ';')")
		case c == '?':
			return nil, fmt.Errorf("positional parameter '?' at byte %d: use :name parameters", i)
		case c == '@' || c == '$':
			return nil, fmt.Errorf("parameter %q at byte %d: use :name parameters", tool.Clip(stmt[i:], 20), i)
		case c == ':':
			j := i + 1
			for j < len(stmt) && isIdentByte(stmt[j], j == i+1) {
				j++
			}
			if j == i+1 {
				return nil, fmt.Errorf("':' at byte %d is not followed by a parameter name", i)
			}
			n := stmt[i+1 : j]
			if !seen[n] {
				seen[n] = true
				names = append(names, n)
			}
			i = j
		case isIdentByte(c, false):
			// Skip a whole word, so "a:b" inside an identifier cannot
			// start a parameter.
			for i < len(stmt) && isIdentByte(stmt[i], false) {
				i++
			}
		default:
			i++
		}
	}
	return names, nil
}

// closeQuote returns the index of the quote closing one opened before
// from; a doubled quote is an escaped one.
func closeQuote(s string, from int, q byte) int {
	for i := from; i < len(s); i++ {
		if s[i] != q {
			continue
		}
		if i+1 < len(s) && s[i+1] == q {
			i++
			continue
		}
		return i
	}
	return -1
}

func isIdentByte(c byte, first bool) bool {
	switch {
	case c == '_', c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
		return true
	case c >= '0' && c <= '9':
		return !first
	}
	return false
}

// startsAsQuery reports whether the statement's first word (after
// comments) is SELECT, WITH or VALUES. sqlite3_stmt_readonly alone would
// let ATTACH, DETACH, BEGIN or a PRAGMA through: they change no file, but
// they are no tool's business either.
func startsAsQuery(stmt string) bool {
	for {
		stmt = strings.TrimLeft(stmt, " \t\r\n\f")
		switch {
		case strings.HasPrefix(stmt, "--"):
			i := strings.IndexByte(stmt, '\n')
			if i < 0 {
				return false
			}
			stmt = stmt[i+1:]
			continue
		case strings.HasPrefix(stmt, "/*"):
			i := strings.Index(stmt, "*/")
			if i < 0 {
				return false
			}
			stmt = stmt[i+2:]
			continue
		case strings.HasPrefix(stmt, "("):
			stmt = stmt[1:]
			continue
		}
		break
	}
	end := 0
	for end < len(stmt) && isIdentByte(stmt[end], false) {
		end++
	}
	switch strings.ToUpper(stmt[:end]) {
	case "SELECT", "WITH", "VALUES":
		return true
	}
	return false
}
