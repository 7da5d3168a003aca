package schemas

import _ "embed" // for the eval scenario schema

//go:embed eval_scenario.json
var evalScenario string

// EvalScenario returns the JSON Schema of one `gameassist eval` scenario
// (a YAML document of a scenario file); the scenario parser validates with
// it, so editors and the command agree on the format. Each call returns a
// fresh copy.
func EvalScenario() []byte {
	return []byte(evalScenario)
}
