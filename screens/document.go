package screens

import "bytes"

// Document returns the rules file the set was parsed from, as loaded, so
// support tools can show the rules that are running rather than whatever
// the file on disk says now.
func (rs *RuleSet) Document() []byte { return bytes.Clone(rs.doc) }

// Document returns the running rules file (the embedded default rules when
// none is configured); after a reload it is the new file.
func (e *Engine) Document() []byte { return e.rules.Load().Document() }
