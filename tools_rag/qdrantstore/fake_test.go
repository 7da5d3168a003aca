package qdrantstore

import (
	"cmp"
	"context"
	"math"
	"net"
	"slices"
	"sync"
	"testing"

	"github.com/qdrant/go-client/qdrant"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/test/bufconn"
)

// fakeQdrant is a partial Qdrant over the client's generated service
// interfaces: enough collection, index, upsert, filter, query-with-fusion,
// scroll and count semantics to check the adapter's calls.
type fakeQdrant struct {
	qdrant.UnimplementedPointsServer

	mu          sync.Mutex
	collections map[string]*fakeCollection
	creates     int
	upserts     int
}

// collectionsServer and qdrantServer route their services to the shared fake.
type collectionsServer struct {
	qdrant.UnimplementedCollectionsServer
	f *fakeQdrant
}

func (s collectionsServer) CollectionExists(ctx context.Context, r *qdrant.CollectionExistsRequest) (*qdrant.CollectionExistsResponse, error) {
	return s.f.collExists(ctx, r)
}

func (s collectionsServer) Create(ctx context.Context, r *qdrant.CreateCollection) (*qdrant.CollectionOperationResponse, error) {
	return s.f.collCreate(ctx, r)
}

func (s collectionsServer) Get(ctx context.Context, r *qdrant.GetCollectionInfoRequest) (*qdrant.GetCollectionInfoResponse, error) {
	return s.f.collGet(ctx, r)
}

type qdrantServer struct {
	qdrant.UnimplementedQdrantServer
	f *fakeQdrant
}

func (s qdrantServer) HealthCheck(ctx context.Context, r *qdrant.HealthCheckRequest) (*qdrant.HealthCheckReply, error) {
	return s.f.health(ctx, r)
}

type fakeCollection struct {
	def     *qdrant.CreateCollection
	indexes map[string]qdrant.FieldType
	points  map[string]*qdrant.PointStruct
}

func (f *fakeQdrant) health(context.Context, *qdrant.HealthCheckRequest) (*qdrant.HealthCheckReply, error) {
	return &qdrant.HealthCheckReply{Title: "fake qdrant", Version: "1.17.0"}, nil
}

func (f *fakeQdrant) collExists(_ context.Context, r *qdrant.CollectionExistsRequest) (*qdrant.CollectionExistsResponse, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	_, ok := f.collections[r.GetCollectionName()]
	return &qdrant.CollectionExistsResponse{Result: &qdrant.CollectionExists{Exists: ok}}, nil
}

func (f *fakeQdrant) collCreate(_ context.Context, r *qdrant.CreateCollection) (*qdrant.CollectionOperationResponse, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, ok := f.collections[r.GetCollectionName()]; ok {
		return nil, status.Error(codes.AlreadyExists, "collection exists")
	}
	if r.GetVectorsConfig().GetParamsMap().GetMap()[DenseVector].GetSize() == 0 {
		return nil, status.Error(codes.InvalidArgument, "dense vector config missing")
	}
	f.creates++
	f.collections[r.GetCollectionName()] = &fakeCollection{def: r, indexes: map[string]qdrant.FieldType{}, points: map[string]*qdrant.PointStruct{}}
	return &qdrant.CollectionOperationResponse{Result: true}, nil
}

func (f *fakeQdrant) coll(name string) (*fakeCollection, error) {
	c, ok := f.collections[name]
	if !ok {
		return nil, status.Errorf(codes.NotFound, "Collection `%s` doesn't exist!", name)
	}
	return c, nil
}

func (f *fakeQdrant) collGet(_ context.Context, r *qdrant.GetCollectionInfoRequest) (*qdrant.GetCollectionInfoResponse, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	c, err := f.coll(r.GetCollectionName())
	if err != nil {
		return nil, err
	}
	n := uint64(len(c.points))
	return &qdrant.GetCollectionInfoResponse{Result: &qdrant.CollectionInfo{
		PointsCount: &n,
		Config: &qdrant.CollectionConfig{
			Params:   &qdrant.CollectionParams{VectorsConfig: c.def.GetVectorsConfig(), SparseVectorsConfig: c.def.GetSparseVectorsConfig()},
			Metadata: c.def.GetMetadata(),
		},
	}}, nil
}

func (f *fakeQdrant) CreateFieldIndex(_ context.Context, r *qdrant.CreateFieldIndexCollection) (*qdrant.PointsOperationResponse, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	c, err := f.coll(r.GetCollectionName())
	if err != nil {
		return nil, err
	}
	c.indexes[r.GetFieldName()] = r.GetFieldType()
	return &qdrant.PointsOperationResponse{Result: &qdrant.UpdateResult{Status: qdrant.UpdateStatus_Completed}}, nil
}

func (f *fakeQdrant) Upsert(_ context.Context, r *qdrant.UpsertPoints) (*qdrant.PointsOperationResponse, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	c, err := f.coll(r.GetCollectionName())
	if err != nil {
		return nil, err
	}
	size := c.def.GetVectorsConfig().GetParamsMap().GetMap()[DenseVector].GetSize()
	for _, p := range r.GetPoints() {
		if p.GetId().GetUuid() == "" {
			return nil, status.Error(codes.InvalidArgument, "point id must be a UUID")
		}
		vs := p.GetVectors().GetVectors().GetVectors()
		if uint64(len(vs[DenseVector].GetDense().GetData())) != size {
			return nil, status.Errorf(codes.InvalidArgument, "wrong dense vector size")
		}
		for name := range vs {
			if name != DenseVector && c.def.GetSparseVectorsConfig().GetMap()[name] == nil {
				return nil, status.Errorf(codes.InvalidArgument, "unknown vector %s", name)
			}
		}
	}
	f.upserts++
	for _, p := range r.GetPoints() {
		c.points[p.GetId().GetUuid()] = p
	}
	return &qdrant.PointsOperationResponse{Result: &qdrant.UpdateResult{Status: qdrant.UpdateStatus_Completed}}, nil
}

// matches implements "must" field conditions with keyword, keywords and
// integer matches, and "must_not" range conditions (gt).
func matches(f *qdrant.Filter, payload map[string]*qdrant.Value) bool {
	for _, c := range f.GetMustNot() {
		fc := c.GetField()
		v, ok := payload[fc.GetKey()]
		if r := fc.GetRange(); r != nil && ok && r.Gt != nil && float64(v.GetIntegerValue()) > r.GetGt() {
			return false
		}
	}
	for _, c := range f.GetMust() {
		fc := c.GetField()
		v := payload[fc.GetKey()]
		m := fc.GetMatch()
		switch {
		case m.GetKeywords() != nil:
			if !slices.Contains(m.GetKeywords().GetStrings(), v.GetStringValue()) {
				return false
			}
		case m.GetKeyword() != "":
			if v.GetStringValue() != m.GetKeyword() {
				return false
			}
		default:
			if _, isInt := m.GetMatchValue().(*qdrant.Match_Integer); !isInt || v.GetIntegerValue() != m.GetInteger() {
				return false
			}
		}
	}
	return true
}

type scoredID struct {
	id    string
	score float64
}

func (c *fakeCollection) nearest(q *qdrant.VectorInput, using string, f *qdrant.Filter, limit uint64) []scoredID {
	var out []scoredID
	for id, p := range c.points {
		if !matches(f, p.GetPayload()) {
			continue
		}
		v := p.GetVectors().GetVectors().GetVectors()[using]
		var s float64
		if d := q.GetDense(); d != nil {
			s = cosine(d.GetData(), v.GetDense().GetData())
		} else if sp := q.GetSparse(); sp != nil {
			doc := map[uint32]float32{}
			for i, ix := range v.GetSparse().GetIndices() {
				doc[ix] = v.GetSparse().GetValues()[i]
			}
			for i, ix := range sp.GetIndices() {
				s += float64(sp.GetValues()[i] * doc[ix])
			}
			if s == 0 {
				continue // sparse search returns only overlapping points
			}
		}
		out = append(out, scoredID{id, s})
	}
	sortScored(out)
	if uint64(len(out)) > limit {
		out = out[:limit]
	}
	return out
}

func sortScored(xs []scoredID) {
	slices.SortFunc(xs, func(a, b scoredID) int {
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		return cmp.Compare(a.id, b.id)
	})
}

func cosine(a, b []float32) float64 {
	var d, na, nb float64
	for i := range a {
		d += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return d / math.Sqrt(na*nb)
}

func (f *fakeQdrant) Query(_ context.Context, r *qdrant.QueryPoints) (*qdrant.QueryResponse, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	c, err := f.coll(r.GetCollectionName())
	if err != nil {
		return nil, err
	}
	if len(r.GetPrefetch()) == 0 || r.GetQuery().GetVariant() == nil {
		return nil, status.Error(codes.InvalidArgument, "fake supports only prefetch + fusion")
	}
	if _, ok := r.GetQuery().GetVariant().(*qdrant.Query_Fusion); !ok || r.GetQuery().GetFusion() != qdrant.Fusion_RRF {
		return nil, status.Error(codes.InvalidArgument, "want RRF fusion")
	}
	fused := map[string]float64{}
	for _, p := range r.GetPrefetch() {
		using := p.GetUsing()
		known := using == DenseVector || c.def.GetSparseVectorsConfig().GetMap()[using] != nil
		if !known || p.GetQuery().GetNearest() == nil {
			return nil, status.Errorf(codes.InvalidArgument, "bad prefetch using %q", using)
		}
		for rank, s := range c.nearest(p.GetQuery().GetNearest(), using, p.GetFilter(), p.GetLimit()) {
			fused[s.id] += 1 / float64(rank+1)
		}
	}
	var out []scoredID
	for id, s := range fused {
		if matches(r.GetFilter(), c.points[id].GetPayload()) {
			out = append(out, scoredID{id, s})
		}
	}
	sortScored(out)
	if uint64(len(out)) > r.GetLimit() {
		out = out[:r.GetLimit()]
	}
	res := make([]*qdrant.ScoredPoint, len(out))
	for i, s := range out {
		res[i] = &qdrant.ScoredPoint{Id: qdrant.NewID(s.id), Score: float32(s.score), Payload: c.points[s.id].GetPayload()}
	}
	return &qdrant.QueryResponse{Result: res}, nil
}

func (f *fakeQdrant) Scroll(_ context.Context, r *qdrant.ScrollPoints) (*qdrant.ScrollResponse, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	c, err := f.coll(r.GetCollectionName())
	if err != nil {
		return nil, err
	}
	var ids []string
	for id, p := range c.points {
		if matches(r.GetFilter(), p.GetPayload()) && id >= r.GetOffset().GetUuid() {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	limit := int(r.GetLimit())
	resp := &qdrant.ScrollResponse{}
	if len(ids) > limit {
		resp.NextPageOffset = qdrant.NewID(ids[limit])
		ids = ids[:limit]
	}
	for _, id := range ids {
		resp.Result = append(resp.Result, &qdrant.RetrievedPoint{Id: qdrant.NewID(id), Payload: c.points[id].GetPayload()})
	}
	return resp, nil
}

func (f *fakeQdrant) Count(_ context.Context, r *qdrant.CountPoints) (*qdrant.CountResponse, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	c, err := f.coll(r.GetCollectionName())
	if err != nil {
		return nil, err
	}
	var n uint64
	for _, p := range c.points {
		if matches(r.GetFilter(), p.GetPayload()) {
			n++
		}
	}
	return &qdrant.CountResponse{Result: &qdrant.CountResult{Count: n}}, nil
}

// startFake serves a fake Qdrant over bufconn and returns a client for it
// and a function that stops the server (to simulate an outage).
func startFake(t *testing.T) (*fakeQdrant, *qdrant.Client, func()) {
	t.Helper()
	lis := bufconn.Listen(1 << 20)
	srv := grpc.NewServer()
	fake := &fakeQdrant{collections: map[string]*fakeCollection{}}
	qdrant.RegisterCollectionsServer(srv, collectionsServer{f: fake})
	qdrant.RegisterPointsServer(srv, fake)
	qdrant.RegisterQdrantServer(srv, qdrantServer{f: fake})
	go func() { _ = srv.Serve(lis) }()
	client, err := qdrant.NewClient(&qdrant.Config{
		Host:                   "passthrough:///bufnet",
		SkipCompatibilityCheck: true,
		PoolSize:               1,
		GrpcOptions: []grpc.DialOption{grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) {
			return lis.DialContext(ctx)
		})},
	})
	if err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	stop := func() { once.Do(srv.Stop) }
	t.Cleanup(func() {
		_ = client.Close()
		stop()
	})
	return fake, client, stop
}
