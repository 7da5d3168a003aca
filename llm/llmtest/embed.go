package llmtest

import (
	"encoding/binary"
	"encoding/json"
	"hash/fnv"
	"io"
	"math"
	"net/http"

	openai "github.com/sashabaranov/go-openai"
)

type embedRequest struct {
	Model      string          `json:"model"`
	Input      json.RawMessage `json:"input"`
	Dimensions int             `json:"dimensions"`
}

// Vector is the embedding the fake returns for input: a unit vector of dim
// floats derived from FNV hashes of the input, so equal inputs embed equally
// and tests can compute the expected answer.
func Vector(input string, dim int) []float32 {
	if dim < 1 {
		return nil
	}
	out := make([]float32, dim)
	var norm float64
	var idx [8]byte
	for i := range out {
		h := fnv.New64a()
		binary.LittleEndian.PutUint64(idx[:], uint64(i))
		_, _ = h.Write(idx[:])
		_, _ = io.WriteString(h, input)
		v := float64(h.Sum64()>>11)/float64(1<<53)*2 - 1
		out[i] = float32(v)
		norm += v * v
	}
	if norm == 0 {
		out[0] = 1
		return out
	}
	scale := 1 / math.Sqrt(norm)
	for i := range out {
		out[i] = float32(float64(out[i]) * scale)
	}
	return out
}

func (s *Server) handleEmbeddings(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		writeJSON(w, http.StatusMethodNotAllowed, errorBody("Method not allowed", "invalid_request_error", ""))
		return
	}
	if !s.authorized(w, r) {
		return
	}
	raw, err := io.ReadAll(io.LimitReader(r.Body, maxBody))
	if err != nil {
		return
	}
	var req embedRequest
	if err := json.Unmarshal(raw, &req); err != nil {
		writeJSON(w, http.StatusBadRequest, errorBody("We could not parse the JSON body of your request.", "invalid_request_error", ""))
		return
	}
	inputs, ok := decodeInputs(req.Input)

	s.mu.Lock()
	s.embedInputs = append(s.embedInputs, inputs)
	dim := s.dim
	var reply *Reply
	if len(s.embedQueue) > 0 {
		reply = &s.embedQueue[0]
		s.embedQueue = s.embedQueue[1:]
	}
	s.mu.Unlock()

	switch {
	case req.Model == "":
		writeJSON(w, http.StatusBadRequest, errorBody("you must provide a model parameter", "invalid_request_error", ""))
		return
	case !ok:
		writeJSON(w, http.StatusBadRequest, errorBody("'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.", "invalid_request_error", ""))
		return
	}
	if reply != nil {
		s.serve(w, r, *reply, "", openai.ChatCompletionRequest{})
		return
	}
	if req.Dimensions > 0 {
		dim = req.Dimensions
	}
	resp := wireEmbeddings{Object: "list", Model: req.Model, Data: make([]wireEmbedding, len(inputs))}
	for i, in := range inputs {
		resp.Data[i] = wireEmbedding{Object: "embedding", Embedding: Vector(in, dim), Index: i}
		resp.Usage.PromptTokens += Tokens(in)
	}
	resp.Usage.TotalTokens = resp.Usage.PromptTokens
	body, err := json.Marshal(resp)
	if err != nil {
		writeJSON(w, http.StatusInternalServerError, errorBody("llmtest: encode embeddings", "server_error", ""))
		return
	}
	writeJSON(w, http.StatusOK, body)
}

// decodeInputs accepts the string and array-of-strings forms of "input";
// the real API also rejects empty strings.
func decodeInputs(raw json.RawMessage) ([]string, bool) {
	var many []string
	if err := json.Unmarshal(raw, &many); err != nil {
		var one string
		if err := json.Unmarshal(raw, &one); err != nil {
			return nil, false
		}
		many = []string{one}
	}
	if len(many) == 0 {
		return nil, false
	}
	for _, in := range many {
		if in == "" {
			return many, false
		}
	}
	return many, true
}
