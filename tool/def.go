package tool

import (
	"context"
	"encoding/json"
	"reflect"
	"time"
)

// Def is one tool written as one value: its metadata, the JSON Schema of its
// arguments (the single source of the parameters, usually an embedded file),
// the Go struct the arguments decode into and the function that answers.
// The registry and executor do validation, decoding, the envelope, timeouts
// and metrics once for every Def, so a tool body is only its query:
//
//	tool.Def[ChampionArgs]{
//		Name: "gcs_get_champion_details", Category: tool.CategoryGCS, CacheFor: 3,
//		Schema: params,
//		Run: func(ctx context.Context, a ChampionArgs) (tool.Result, error) { ... },
//	}
//
// *Def implements Tool, so it registers like any other tool.
type Def[A any] struct {
	// Name is what the LLM calls; never renamed once published.
	Name string
	// Description tells the LLM when to use the tool.
	Description string
	// Category is the tool family.
	Category Category
	// CacheFor is the default llm_cache_duration in exchanges; 0 = not cached.
	CacheFor int
	// Instruction is the llm_instruction of a successful result that sets none.
	Instruction string
	// Aliases are extra names the tool answers to.
	Aliases []string
	// Version is the tool's version; 0 means unversioned.
	Version int
	// Schema is the JSON Schema of the arguments object; every property maps
	// to a json tag of A and back (CheckArgs proves it).
	Schema json.RawMessage
	// Timeout overrides the executor's per-call timeout when positive.
	Timeout time.Duration
	// Paging declares how the tool pages; nil when it does not.
	Paging *Paging
	// DisplayNames are the tool's names for players by locale (the chat
	// widget's chips); unset locales fall back to English, then to a name
	// derived from Name.
	DisplayNames DisplayNames
	// Player binds boolean parameters to the session's player state; Run
	// reads the values with Bound.
	Player []PlayerParam
	// Personal marks a result that depends on the player state otherwise.
	Personal bool
	// Run answers one call with decoded arguments. Bad arguments the schema
	// cannot express are a Refuse error (or a Failure result); a backend
	// failure is any other error.
	Run func(ctx context.Context, args A) (Result, error)
}

// Spec implements Tool.
func (d *Def[A]) Spec() Spec {
	return Spec{
		Name: d.Name, Description: d.Description, Category: d.Category, Parameters: d.Schema,
		CacheDuration: d.CacheFor, Aliases: d.Aliases, Timeout: d.Timeout,
		Version: d.Version, Instruction: d.Instruction, Paging: d.Paging, DisplayNames: d.DisplayNames,
		Player: d.Player, Personal: d.Personal,
	}
}

// Call implements Tool: it decodes args into A, refusing unknown fields, and
// runs the definition.
func (d *Def[A]) Call(ctx context.Context, args json.RawMessage) (Result, error) {
	var a A
	if err := DecodeArgs(d.Name, args, &a); err != nil {
		r, _ := Refused(err)
		return r, nil
	}
	return d.run(ctx, a)
}

// decodeValidated decodes arguments the executor has already validated
// against the schema, whose properties CheckArgs proves are exactly A's
// fields (plain decoding suffices, without the strict decoder's cost), and
// returns the call to make with them. The executor decodes on the caller's
// goroutine, once for every attempt, and runs the call on its own.
func (d *Def[A]) decodeValidated(args json.RawMessage) (func(context.Context) (Result, error), Result, bool) {
	var a A
	if len(args) > 0 && string(args) != "{}" {
		if err := json.Unmarshal(args, &a); err != nil {
			return nil, Failure("Invalid arguments for "+d.Name+".", describeDecode(err),
				"Call "+d.Name+" again with arguments that match its parameter schema."), false
		}
	}
	return func(ctx context.Context) (Result, error) { return d.run(ctx, a) }, Result{}, true
}

func (d *Def[A]) run(ctx context.Context, a A) (Result, error) {
	r, err := d.Run(ctx, a)
	if refused, ok := Refused(err); ok {
		return refused, nil
	}
	if err != nil {
		return r, err
	}
	if r.OK() && r.LLMInstruction == "" {
		r.LLMInstruction = d.Instruction
	}
	return r, nil
}

// ArgsType implements Typed: the Go type the arguments decode into.
func (d *Def[A]) ArgsType() reflect.Type { return reflect.TypeFor[A]() }

// validatedDecoder is implemented by Def: the executor calls it after
// validating the arguments against the tool's schema. A false ok comes with
// the failure envelope to answer instead.
type validatedDecoder interface {
	decodeValidated(args json.RawMessage) (call func(context.Context) (Result, error), failed Result, ok bool)
}

// Typed is implemented by tools whose arguments decode into a Go struct
// (every Def); CheckArgs uses it to prove schema and struct agree.
type Typed interface {
	Tool
	ArgsType() reflect.Type
}
