package tool

import (
	"errors"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

func asValidationError(err error, target **jsonschema.ValidationError) bool {
	return errors.As(err, target)
}

// describeValidation flattens a schema validation error into one line per
// leaf cause, each naming the field: "field 'limit': must be <= 50".
func describeValidation(ve *jsonschema.ValidationError) string {
	p := message.NewPrinter(language.English)
	var lines []string
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			field := "arguments"
			if len(e.InstanceLocation) > 0 {
				field = "field '" + strings.Join(e.InstanceLocation, ".") + "'"
			}
			lines = append(lines, field+": "+e.ErrorKind.LocalizedString(p))
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	if len(lines) > 5 {
		lines = append(lines[:5], "...")
	}
	return strings.Join(lines, "; ")
}
