// Package archtest holds tests of the module's import graph: the rules on
// which packages may depend on which, checked with go list.
package archtest
