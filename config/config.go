// Package config reads gameassist's settings from the environment, once, at
// start: it is the only reader of the environment, it validates every value
// and it can log itself with secrets masked.
package config

import (
	"errors"
	"fmt"
	"log/slog"
	"net/netip"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"time"
)

// Config holds every setting of the server. Each field is declared once,
// here: its tags drive Load, LogValue and the generated table of
// docs/config.md (see Fields).
//
//	env:     the variable(s); with several, the first one set wins
//	default: the value when unset (none: the zero value); shown: how the
//	         table shows the default instead ("embedded", "built-in table")
//	min/max: the range of a whole number; oneof: the allowed words
//	mask:    secret (logged as ***) or url (its password logged as ***)
//	log:     the start-up log's key (default: the lower-cased first env)
//	doc:     the table's description
type Config struct {
	Addr                 string        `env:"ADDR" default:":8080" doc:"listen address"`
	RedisURL             string        `env:"REDIS_URL" mask:"url" doc:"redis://host:6379/0; unset starts an in-process Redis-compatible server (data lost on exit)"`
	GCSDBPath            string        `env:"GCS_DB_PATH" default:"./data/gcs.db" doc:"SQLite game database; with no file there yet, or one that holds no game (empty, or a sample build that did not finish), the sample game is built there; any other database is opened as is, read-only, never migrated"`
	QdrantURL            string        `env:"QDRANT_URL" mask:"url" doc:"Qdrant gRPC endpoint, e.g. http://localhost:6334; unset uses the embedded index built from CONTENT_DIR"`
	QdrantAPIKey         string        `env:"QDRANT_API_KEY" mask:"secret" doc:"Qdrant API key"`
	OpenAIBaseURL        string        `env:"OPENAI_BASE_URL" mask:"url" doc:"any OpenAI-compatible API (http://localhost:11434/v1 for Ollama)"`
	OpenAIAPIKey         string        `env:"OPENAI_API_KEY" mask:"secret" doc:"API key; with neither key nor base URL the offline responder answers"`
	OpenAIModel          string        `env:"OPENAI_MODEL" default:"gpt-4o-mini" doc:"chat model"`
	PromptCacheKey       bool          `env:"OPENAI_PROMPT_CACHE_KEY" default:"true" doc:"send each session's prompt_cache_key (a hash of the session id) so the provider keeps the session's prompt prefix in one cache; false for a server that refuses unknown fields"`
	EmbeddingsModel      string        `env:"EMBEDDINGS_MODEL" doc:"remote embeddings model; unset uses the local hashing embedder"`
	AdminToken           string        `env:"ADMIN_TOKEN" mask:"secret" doc:"bearer token of /admin/*; unset refuses every admin request"`
	WebhookSecret        string        `env:"WEBHOOK_SECRET" mask:"secret" doc:"HMAC key of POST /v1/screens/events; unset refuses every event"`
	ScreenRules          string        `env:"SCREEN_RULES" shown:"embedded" doc:"path of a screen-rules JSON file; unset uses the sample game's rules, or none over a studio's own database"`
	ContentDir           string        `env:"CONTENT_DIR" shown:"embedded" doc:"directory of RAG documents (markdown with front matter); unset uses the sample documents built into the binary"`
	ToolsFile            string        `env:"TOOLS_FILE" doc:"YAML file of your own SQL tools and chains; a bad file stops start-up, POST /admin/tools/reload re-reads it"`
	LogLevel             slog.Level    `env:"LOG_LEVEL" default:"info" oneof:"debug,info,warn,error" doc:"log level"`
	LogFormat            string        `env:"LOG_FORMAT" default:"auto" oneof:"auto,json,text" doc:"auto: text on a terminal, JSON otherwise"`
	SessionTTL           time.Duration `env:"SESSION_TTL" default:"24h" doc:"idle sessions expire after this"`
	MaxToolIterations    int           `env:"MAX_TOOL_ITERATIONS" default:"5" min:"1" max:"20" doc:"LLM tool rounds per turn before a final answer without tools"`
	MaxContextTokens     int           `env:"MAX_CONTEXT_TOKENS" default:"4000" min:"500" max:"1000000" doc:"one token budget for the prompt but the tool schemas and the tool catalog: history (with the rolling summary), cached tool results and the tool loop's results share it"`
	ChatRatePerMinute    int           `env:"CHAT_RATE_PER_MINUTE" default:"30" min:"1" max:"100000" doc:"chat turns per session per minute"`
	SessionRatePerMinute int           `env:"SESSION_RATE_PER_MINUTE" default:"20" min:"1" max:"100000" doc:"sessions created per client IP per minute"`
	SQLToolsForLLM       bool          `env:"SQL_TOOLS_FOR_LLM" default:"false" doc:"offer gcs_db_tables, gcs_db_schema and gcs_db_query to the LLM"`
	AllowedOrigins       []string      `env:"ALLOWED_ORIGINS" doc:"comma-separated CORS origins of the chat widget"`
	TrustedProxies       []string      `env:"TRUSTED_PROXIES" doc:"comma-separated IPs or CIDRs of your load balancers; only their X-Forwarded-For names the client for the per-IP limits"`
	ShutdownTimeout      time.Duration `env:"SHUTDOWN_TIMEOUT" default:"15s" doc:"how long in-flight turns may finish on SIGTERM"`
	ToolTimeout          time.Duration `env:"TOOL_TIMEOUT" default:"10s" doc:"per tool call"`
	LLMTimeout           time.Duration `env:"LLM_TIMEOUT" default:"30s" doc:"per LLM call attempt; a turn's LLM loop gets 3 times this (retries included), then answers offline (degraded)"`
	MaxResultChars       int           `env:"MAX_RESULT_CHARS" default:"8000" min:"500" max:"1000000" doc:"tool results are cut at an element or line boundary beyond this"`
	MaxMessageChars      int           `env:"MAX_MESSAGE_CHARS" default:"4000" min:"1" max:"100000" doc:"longest chat message accepted"`
	CacheRefresh         time.Duration `env:"CACHE_REFRESH" default:"1m" doc:"refresh interval of the cache tools' snapshot"`
	MCPToken             string        `env:"MCP_TOKEN" mask:"secret" doc:"bearer token of /mcp (MCP over streamable HTTP); unset refuses every MCP request"`
	MCPRatePerMinute     int           `env:"MCP_RATE_PER_MINUTE" default:"300" min:"1" max:"100000" doc:"/mcp requests per client IP per minute (counted before the token check)"`
	ToolSelection        string        `env:"TOOL_SELECTION" default:"auto" oneof:"auto,all,deferred,subset" doc:"auto (deferred is the same): every LLM call of a session offers the same few tools (the core sorted by name, find_tools, use_tool, search_conversation) and the system prompt ends with a catalog of the others, called through use_tool (see TOOL_CATALOG_MAX_BYTES), so providers can cache the whole prompt; subset: each call offers a selected subset of the tools (plus find_tools); all: every tool on every call"`
	ToolCatalogMaxBytes  int           `env:"TOOL_CATALOG_MAX_BYTES" default:"6144" min:"0" max:"1000000" doc:"TOOL_SELECTION=auto: the catalog of tools at the end of the system prompt (one line each: name, arguments, what it does) stays within this many bytes; tools left out are described after the history when a question needs them; 0: no catalog"`
	MaxToolsPerCall      int           `env:"MAX_TOOLS_PER_CALL" default:"10" min:"2" max:"128" doc:"tools offered per LLM call in auto mode, find_tools included"`
	MaxToolCallsPerRound int           `env:"MAX_TOOL_CALLS_PER_ROUND" default:"16" min:"1" max:"128" doc:"tool calls run from one LLM answer; the rest are dropped, with one note asking the model for fewer"`
	PlayerStateTTL       time.Duration `env:"PLAYER_STATE_TTL" default:"720h" doc:"how long a pushed player state lives in Redis (PUT /v1/players/:player_id/state)"`
	ProgressPath         string        `env:"PROGRESS_PATH" default:"progress.chapter" doc:"dotted path in a player state holding the progress that unlocks documents (front matter unlocks_at)"`
	FeedbackMax          int           `env:"FEEDBACK_MAX" default:"100000" min:"1" max:"100000000" doc:"players' ratings kept (POST /v1/feedback): the stream is trimmed to about this many, oldest first"`
	WebhookTolerance     time.Duration `env:"WEBHOOK_TOLERANCE" default:"5m" doc:"how far a webhook's signed timestamp may be from the server's clock, either way"`
	// OTelEndpoint is empty (tracing off) also when OTEL_SDK_DISABLED=true
	// or OTEL_TRACES_EXPORTER=none.
	OTelEndpoint string `env:"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT,OTEL_EXPORTER_OTLP_ENDPOINT" mask:"url" log:"otel_endpoint" doc:"OTLP endpoint of your collector (e.g. http://otel-collector:4318); unset leaves tracing off, as do OTEL_SDK_DISABLED=true and OTEL_TRACES_EXPORTER=none"`
	OTelProtocol string `env:"OTEL_EXPORTER_OTLP_TRACES_PROTOCOL,OTEL_EXPORTER_OTLP_PROTOCOL" default:"http/protobuf" oneof:"http/protobuf,grpc" log:"otel_protocol" doc:"OTLP protocol of the traces"`
	// EvalPrices prices models for gameassist eval over DefaultEvalPrices.
	EvalPrices map[string]Price `env:"EVAL_PRICES" shown:"built-in table" doc:"gameassist eval prices in US dollars per million tokens, model=input/output,... (e.g. llama3.1=0/0,gpt-4o-mini=0.15/0.60); adds to or overrides the built-in prices of gpt-4o-mini, gpt-4o, gpt-4.1-mini and gpt-4.1"`
}

// Price is a model's price in US dollars per million tokens.
type Price struct {
	Input  float64
	Output float64
}

// DefaultEvalPrices are list prices of common OpenAI models (USD per
// million tokens); EVAL_PRICES adds models or overrides these.
func DefaultEvalPrices() map[string]Price {
	return map[string]Price{
		"gpt-4o-mini":  {Input: 0.15, Output: 0.60},
		"gpt-4o":       {Input: 2.50, Output: 10.00},
		"gpt-4.1-mini": {Input: 0.40, Output: 1.60},
		"gpt-4.1":      {Input: 2.00, Output: 8.00},
	}
}

// LLMEnabled reports whether an OpenAI-compatible endpoint is configured;
// without one, turns are answered by the offline responder.
func (c Config) LLMEnabled() bool {
	return c.OpenAIAPIKey != "" || c.OpenAIBaseURL != ""
}

// Load reads the configuration through getenv (os.Getenv in production, a map
// in tests) and validates it.
func Load(getenv func(string) string) (Config, error) {
	fields, err := Fields()
	if err != nil {
		return Config{}, err
	}
	p := parser{getenv: getenv}
	var c Config
	v := reflect.ValueOf(&c).Elem()
	for _, f := range fields {
		p.set(v.Field(f.index), f)
	}
	if strings.EqualFold(strings.TrimSpace(getenv("OTEL_SDK_DISABLED")), "true") ||
		strings.EqualFold(strings.TrimSpace(getenv("OTEL_TRACES_EXPORTER")), "none") {
		c.OTelEndpoint = ""
	}
	if c.OTelEndpoint != "" {
		if pu, err := url.Parse(c.OTelEndpoint); err != nil || pu.Host == "" {
			p.errs = append(p.errs, fmt.Errorf("OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT: %q is not an absolute URL", c.OTelEndpoint))
		}
	}
	if c.RedisURL != "" {
		if _, err := url.Parse(c.RedisURL); err != nil {
			p.errs = append(p.errs, fmt.Errorf("REDIS_URL: %w", err))
		}
	}
	for _, u := range []struct{ name, val string }{{"QDRANT_URL", c.QdrantURL}, {"OPENAI_BASE_URL", c.OpenAIBaseURL}} {
		if u.val == "" {
			continue
		}
		if pu, err := url.Parse(u.val); err != nil || pu.Host == "" {
			p.errs = append(p.errs, fmt.Errorf("%s: %q is not an absolute URL", u.name, u.val))
		}
	}
	for _, tp := range c.TrustedProxies {
		if _, err := netip.ParsePrefix(tp); err != nil {
			if _, err := netip.ParseAddr(tp); err != nil {
				p.errs = append(p.errs, fmt.Errorf("TRUSTED_PROXIES: %q is not an IP address or CIDR", tp))
			}
		}
	}
	if !validProgressPath(c.ProgressPath) {
		p.errs = append(p.errs, fmt.Errorf("PROGRESS_PATH: %q is not a dotted path of letters, digits, '_' and '-'", c.ProgressPath))
	}
	if c.PlayerStateTTL < time.Minute {
		p.errs = append(p.errs, fmt.Errorf("PLAYER_STATE_TTL: %s is under a minute", c.PlayerStateTTL))
	}
	if err := errors.Join(p.errs...); err != nil {
		return Config{}, fmt.Errorf("config: %w", err)
	}
	return c, nil
}

// LogValue renders every setting for logs, secrets masked.
func (c Config) LogValue() slog.Value {
	fields, _ := Fields() // Load has refused bad tags already
	v := reflect.ValueOf(c)
	attrs := make([]slog.Attr, 0, len(fields))
	for _, f := range fields {
		attrs = append(attrs, f.attr(v.Field(f.index)))
	}
	return slog.GroupValue(attrs...)
}

func mask(s string) string {
	if s == "" {
		return ""
	}
	return "***"
}

func maskURL(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.User == nil {
		return s
	}
	if _, has := u.User.Password(); has {
		u.User = url.UserPassword(u.User.Username(), "***")
	}
	return u.Redacted()
}

type parser struct {
	getenv func(string) string
	errs   []error
}

func list(v string) []string {
	var out []string
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// prices reads "model=input/output,..." (USD per million tokens) over the
// defaults, e.g. "llama3.1=0/0,gpt-4o-mini=0.15/0.6".
func (p *parser) prices(name, v string) map[string]Price {
	out := DefaultEvalPrices()
	for _, item := range list(v) {
		model, pair, ok := strings.Cut(item, "=")
		in, outp, ok2 := strings.Cut(pair, "/")
		model = strings.TrimSpace(model)
		pi, err1 := strconv.ParseFloat(strings.TrimSpace(in), 64)
		po, err2 := strconv.ParseFloat(strings.TrimSpace(outp), 64)
		if !ok || !ok2 || model == "" || err1 != nil || err2 != nil || pi < 0 || po < 0 {
			p.errs = append(p.errs, fmt.Errorf("%s: %q is not model=input/output in US dollars per million tokens, e.g. gpt-4o-mini=0.15/0.60", name, item))
			continue
		}
		out[model] = Price{Input: pi, Output: po}
	}
	return out
}

// validProgressPath reports whether p is a dotted path such as
// "progress.chapter": 1 to 16 non-empty segments of letters, digits, '_'
// and '-', at most 256 bytes.
func validProgressPath(p string) bool {
	if p == "" || len(p) > 256 {
		return false
	}
	segs := strings.Split(p, ".")
	if len(segs) > 16 {
		return false
	}
	for _, seg := range segs {
		if seg == "" {
			return false
		}
		for _, r := range seg {
			if !(r == '_' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
				return false
			}
		}
	}
	return true
}
