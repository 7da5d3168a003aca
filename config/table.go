package config

import (
	"fmt"
	"strings"
)

// Table renders the settings as the markdown of docs/config.md: one row a
// variable, with its default, the values it takes and what it does.
func Table() (string, error) {
	fields, err := Fields()
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString("# Configuration\n\n")
	b.WriteString("Generated from the tags of `config.Config` by `go test ./config -update`; a test fails when it is out of date.\n")
	b.WriteString("Every setting is an environment variable, read once at start-up; a bad value stops start-up with an error naming the variable.\n")
	b.WriteString("The start-up log lists every setting, secrets masked.\n\n")
	b.WriteString("| Variable | Default | Values | Description |\n| --- | --- | --- | --- |\n")
	for _, f := range fields {
		names := make([]string, len(f.Env))
		for i, n := range f.Env {
			names[i] = "`" + n + "`"
		}
		def := "*(unset)*"
		switch {
		case f.Shown != "":
			def = "*(" + f.Shown + ")*"
		case f.Default != "":
			def = "`" + f.Default + "`"
		}
		values := f.Kind
		switch {
		case f.OneOf != nil:
			values = "`" + strings.Join(f.OneOf, "`, `") + "`"
		case f.Ranged:
			values = fmt.Sprintf("%d to %d", f.Min, f.Max)
		case f.Kind == "list":
			values = "comma-separated list"
		case f.Kind == "duration":
			values = "duration (30s, 5m, 24h)"
		}
		if f.Mask == "secret" {
			values += ", secret"
		}
		doc := f.Doc
		if len(f.Env) > 1 {
			doc += " (the first variable set wins)"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", strings.Join(names, " or "), def, values, strings.ReplaceAll(doc, "|", "\\|"))
	}
	return b.String(), nil
}
