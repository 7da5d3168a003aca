// Package openapitest checks HTTP exchanges against gameassist's OpenAPI
// document (schemas.OpenAPI), so the handler tests prove that the server
// answers what the published contract says: documented route and status,
// content type, request and response bodies. Authentication is not checked
// here (any credentials pass); the api tests cover it.
package openapitest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"mime"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"

	"github.com/gameassist/gameassist/schemas"
	"github.com/gameassist/gameassist/tool"
)

// Validator matches requests to the document's operations and validates
// requests and responses against them. It is safe for concurrent use.
type Validator struct {
	doc    *openapi3.T
	router routers.Router
	// formats enforces the string formats kin-openapi leaves unchecked by
	// default (uuid).
	formats []openapi3.SchemaValidationOption
}

// New loads and validates the embedded OpenAPI document. It is the
// error-returning form of Load, for code that is not a test.
func New() (*Validator, error) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(schemas.OpenAPI())
	if err != nil {
		return nil, fmt.Errorf("openapitest: load document: %w", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		return nil, fmt.Errorf("openapitest: invalid document: %w", err)
	}
	// Without servers every host and scheme matches: the tests run on
	// httptest servers at random addresses.
	doc.Servers = nil
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		return nil, fmt.Errorf("openapitest: build router: %w", err)
	}
	formats := []openapi3.SchemaValidationOption{
		openapi3.WithStringFormatValidator("uuid", openapi3.NewRegexpFormatValidator(openapi3.FormatOfStringForUUIDOfRFC9562)),
	}
	return &Validator{doc: doc, router: router, formats: formats}, nil
}

// Load is New for tests: it fails tb at once when the document does not
// load or validate.
func Load(tb testing.TB) *Validator {
	tb.Helper()
	v, err := New()
	if err != nil {
		tb.Fatal(err)
	}
	return v
}

// Check validates one exchange, request and response, and fails tb with
// every mismatch found. reqBody and respBody are the raw bodies (req.Body
// and resp.Body are not read). Use CheckResponse for a request that is
// deliberately invalid.
func (v *Validator) Check(tb testing.TB, req *http.Request, reqBody []byte, resp *http.Response, respBody []byte) {
	tb.Helper()
	if err := v.Validate(req, reqBody, resp, respBody); err != nil {
		tb.Fatal(err)
	}
}

// CheckResponse validates only the response to req and fails tb on a
// mismatch: for tests that send malformed or unauthorized requests on
// purpose and check the error answer.
func (v *Validator) CheckResponse(tb testing.TB, req *http.Request, resp *http.Response, respBody []byte) {
	tb.Helper()
	if err := v.ValidateResponse(req, resp, respBody); err != nil {
		tb.Fatal(err)
	}
}

// Validate is Check returning the mismatches as an error instead of
// failing a test; both the request's and the response's are reported.
func (v *Validator) Validate(req *http.Request, reqBody []byte, resp *http.Response, respBody []byte) error {
	in, err := v.input(req, reqBody)
	if err != nil {
		return err
	}
	var errs []error
	if err := openapi3filter.ValidateRequest(req.Context(), in); err != nil {
		errs = append(errs, fmt.Errorf("request does not match the document: %w", err))
	}
	if err := v.validateResponse(in, resp, respBody); err != nil { //nolint:contextcheck // the input carries the request's context
		errs = append(errs, err)
	}
	if len(errs) > 0 {
		return fmt.Errorf("openapitest: %s %s: %w", req.Method, req.URL.Path, errors.Join(errs...))
	}
	return nil
}

// ValidateResponse is CheckResponse returning the mismatch as an error.
func (v *Validator) ValidateResponse(req *http.Request, resp *http.Response, respBody []byte) error {
	in, err := v.input(req, nil)
	if err != nil {
		return err
	}
	if err := v.validateResponse(in, resp, respBody); err != nil {
		return fmt.Errorf("openapitest: %s %s: %w", req.Method, req.URL.Path, err)
	}
	return nil
}

// input finds req's operation and builds the validation input over a copy
// of req whose body is reqBody.
func (v *Validator) input(req *http.Request, reqBody []byte) (*openapi3filter.RequestValidationInput, error) {
	if req == nil || req.URL == nil {
		return nil, errors.New("openapitest: nil request")
	}
	r := req.Clone(req.Context())
	r.Body, r.GetBody, r.ContentLength = http.NoBody, nil, 0
	if len(reqBody) > 0 {
		body := bytes.Clone(reqBody)
		r.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
		r.Body, _ = r.GetBody()
		r.ContentLength = int64(len(body))
	}
	route, params, err := v.router.FindRoute(r)
	if err != nil {
		return nil, fmt.Errorf("openapitest: %s %s: no documented operation: %w", req.Method, req.URL.Path, err)
	}
	return &openapi3filter.RequestValidationInput{
		Request:    r,
		PathParams: params,
		Route:      route,
		Options: &openapi3filter.Options{
			AuthenticationFunc:      func(context.Context, *openapi3filter.AuthenticationInput) error { return nil },
			MultiError:              true,
			SchemaValidationOptions: v.formats,
		},
	}, nil
}

func (v *Validator) validateResponse(in *openapi3filter.RequestValidationInput, resp *http.Response, respBody []byte) error {
	if resp == nil {
		return errors.New("nil response")
	}
	op := in.Route.Operation
	doc := op.Responses.Status(resp.StatusCode)
	if doc == nil {
		doc = op.Responses.Default()
	}
	if doc == nil || doc.Value == nil {
		return fmt.Errorf("status %d is not documented for this operation (documented: %s)",
			resp.StatusCode, strings.Join(documentedStatuses(op), ", "))
	}
	ct := resp.Header.Get("Content-Type")
	if len(doc.Value.Content) == 0 {
		if len(respBody) > 0 {
			return fmt.Errorf("status %d is documented without a body, got %d bytes of %q", resp.StatusCode, len(respBody), ct)
		}
	} else if doc.Value.Content.Get(ct) == nil {
		return fmt.Errorf("status %d: content type %q is not documented (documented: %s)",
			resp.StatusCode, ct, strings.Join(slices.Sorted(maps.Keys(doc.Value.Content)), ", "))
	}
	opts := &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true, SchemaValidationOptions: v.formats}
	if mt, _, err := mime.ParseMediaType(ct); err == nil {
		switch mt {
		case "text/event-stream", "text/plain":
			// Not JSON documents: only the status and content type are checked.
			opts.ExcludeResponseBody = true
		}
	}
	out := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: in,
		Status:                 resp.StatusCode,
		Header:                 resp.Header,
		Options:                opts,
	}
	out.SetBodyBytes(respBody)
	if err := openapi3filter.ValidateResponse(in.Request.Context(), out); err != nil {
		return fmt.Errorf("response %d does not match the document: %w\nbody: %s", resp.StatusCode, err, tool.Clip(string(respBody), 2000))
	}
	return nil
}

// documentedStatuses lists the statuses op documents, for error messages.
func documentedStatuses(op *openapi3.Operation) []string {
	return slices.Sorted(maps.Keys(op.Responses.Map()))
}

// Operation is one documented operation: its method and path template, in
// the document's spelling ("/admin/sessions/{id}").
type Operation struct {
	Method, Path string
}

func (o Operation) String() string { return o.Method + " " + o.Path }

// Operations lists every operation of the document, sorted by path then
// method, so a test can require a row for each (a new route without one
// fails it).
func (v *Validator) Operations() []Operation {
	var ops []Operation
	for path, item := range v.doc.Paths.Map() {
		for method := range item.Operations() {
			ops = append(ops, Operation{Method: method, Path: path})
		}
	}
	slices.SortFunc(ops, func(a, b Operation) int {
		if c := strings.Compare(a.Path, b.Path); c != 0 {
			return c
		}
		return strings.Compare(a.Method, b.Method)
	})
	return ops
}
