package tool

import "errors"

// Refusal is a call a tool refuses: arguments its schema cannot rule out
// (an unknown name, an empty query), answered with an error envelope the
// model reads and acts on. Returned as an error, it lets a tool's helpers
// refuse without a (value, *Result, error) triple; the executor and Def
// turn it back into its Result, so a refusal is never a backend failure.
type Refusal struct {
	Result Result
}

// Error implements error.
func (r *Refusal) Error() string {
	return "refused: " + r.Result.Message + " (" + r.Result.ErrorDetails + ")"
}

// Refuse is the refusal whose envelope says message, what was wrong
// (details) and what to try instead (guidance), as Failure builds it.
func Refuse(message, details, guidance string) error {
	return &Refusal{Result: Failure(message, details, guidance)}
}

// Refused returns the envelope of the refusal in err's chain, if any.
func Refused(err error) (Result, bool) {
	var r *Refusal
	if errors.As(err, &r) {
		return r.Result, true
	}
	return Result{}, false
}
