// Package k8s holds the Kubernetes manifests (kustomize) and the test that
// renders them and decodes every object strictly into its k8s.io/api type.
package k8s_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/labels"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/yaml"
)

// rendered is every object of the kustomization, decoded.
type rendered struct {
	deployment *appsv1.Deployment
	service    *corev1.Service
	hpa        *autoscalingv2.HorizontalPodAutoscaler
	pdb        *policyv1.PodDisruptionBudget
	netpol     *networkingv1.NetworkPolicy
	configMap  *corev1.ConfigMap
	secret     *corev1.Secret
	kinds      []string
}

// strict decodes one object's JSON into v, refusing unknown fields (a
// misspelt or misplaced key the API server would drop silently).
func strict(raw []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// render builds the kustomization with kustomize's library, as
// `kubectl kustomize deploy/k8s` does, and decodes every object.
func render(t *testing.T) rendered {
	t.Helper()
	k := krusty.MakeKustomizer(krusty.MakeDefaultOptions())
	m, err := k.Run(filesys.MakeFsOnDisk(), ".")
	if err != nil {
		t.Fatalf("kustomize build: %v", err)
	}
	var r rendered
	for _, res := range m.Resources() {
		raw, err := res.MarshalJSON()
		if err != nil {
			t.Fatalf("%s: %v", res.CurId(), err)
		}
		kind := res.GetKind()
		r.kinds = append(r.kinds, kind)
		var target any
		switch kind {
		case "Namespace":
			target = &corev1.Namespace{}
		case "ServiceAccount":
			target = &corev1.ServiceAccount{}
		case "ConfigMap":
			r.configMap = &corev1.ConfigMap{}
			target = r.configMap
		case "Secret":
			r.secret = &corev1.Secret{}
			target = r.secret
		case "Service":
			r.service = &corev1.Service{}
			target = r.service
		case "Deployment":
			r.deployment = &appsv1.Deployment{}
			target = r.deployment
		case "HorizontalPodAutoscaler":
			r.hpa = &autoscalingv2.HorizontalPodAutoscaler{}
			target = r.hpa
		case "PodDisruptionBudget":
			r.pdb = &policyv1.PodDisruptionBudget{}
			target = r.pdb
		case "NetworkPolicy":
			r.netpol = &networkingv1.NetworkPolicy{}
			target = r.netpol
		default:
			t.Fatalf("rendered a %s (%s) this test does not know: add its type", kind, res.CurId())
		}
		if err := strict(raw, target); err != nil {
			t.Errorf("%s %s does not decode strictly into its k8s.io/api type: %v", kind, res.GetName(), err)
		}
	}
	return r
}

func TestManifests(t *testing.T) {
	r := render(t)
	for _, want := range []string{"Namespace", "ServiceAccount", "ConfigMap", "Secret", "Service", "Deployment", "HorizontalPodAutoscaler", "PodDisruptionBudget", "NetworkPolicy"} {
		if !slices.Contains(r.kinds, want) {
			t.Fatalf("no %s rendered (got %v)", want, r.kinds)
		}
	}
	d := r.deployment
	pod := d.Spec.Template.Spec
	if len(pod.Containers) != 1 {
		t.Fatalf("%d containers", len(pod.Containers))
	}
	c := pod.Containers[0]

	t.Run("probes", func(t *testing.T) {
		if c.ReadinessProbe == nil || c.ReadinessProbe.HTTPGet == nil || c.ReadinessProbe.HTTPGet.Path != "/readyz" {
			t.Errorf("readiness probe %+v, want GET /readyz", c.ReadinessProbe)
		}
		if c.LivenessProbe == nil || c.LivenessProbe.HTTPGet == nil || c.LivenessProbe.HTTPGet.Path != "/healthz" {
			t.Errorf("liveness probe %+v, want GET /healthz", c.LivenessProbe)
		}
		for _, p := range []*corev1.Probe{c.ReadinessProbe, c.LivenessProbe, c.StartupProbe} {
			if p != nil && p.HTTPGet != nil && p.HTTPGet.Port.String() != c.Ports[0].Name {
				t.Errorf("probe port %s is not the container port %s", p.HTTPGet.Port.String(), c.Ports[0].Name)
			}
		}
	})

	t.Run("grace covers the shutdown timeout", func(t *testing.T) {
		timeout, err := time.ParseDuration(r.configMap.Data["SHUTDOWN_TIMEOUT"])
		if err != nil {
			t.Fatalf("SHUTDOWN_TIMEOUT in the ConfigMap: %v", err)
		}
		need := timeout
		if c.Lifecycle != nil && c.Lifecycle.PreStop != nil && c.Lifecycle.PreStop.Sleep != nil {
			need += time.Duration(c.Lifecycle.PreStop.Sleep.Seconds) * time.Second
		}
		if pod.TerminationGracePeriodSeconds == nil || time.Duration(*pod.TerminationGracePeriodSeconds)*time.Second < need {
			t.Errorf("terminationGracePeriodSeconds %v < SHUTDOWN_TIMEOUT + preStop (%s)", pod.TerminationGracePeriodSeconds, need)
		}
	})

	t.Run("non-root, read-only, limited", func(t *testing.T) {
		psc, sc := pod.SecurityContext, c.SecurityContext
		if psc == nil || psc.RunAsNonRoot == nil || !*psc.RunAsNonRoot || psc.RunAsUser == nil || *psc.RunAsUser == 0 {
			t.Errorf("pod security context %+v: not non-root", psc)
		}
		if sc == nil || sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem ||
			sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation ||
			sc.Capabilities == nil || !slices.Contains(sc.Capabilities.Drop, "ALL") {
			t.Errorf("container security context %+v", sc)
		}
		if c.Resources.Requests.Cpu().IsZero() || c.Resources.Requests.Memory().IsZero() || c.Resources.Limits.Memory().IsZero() {
			t.Errorf("resources %+v: requests for cpu and memory and a memory limit wanted", c.Resources)
		}
		// A read-only root needs somewhere to write the GCS database.
		dbDir := filepath.Dir(r.configMap.Data["GCS_DB_PATH"])
		if !slices.ContainsFunc(c.VolumeMounts, func(m corev1.VolumeMount) bool { return m.MountPath == dbDir && !m.ReadOnly }) {
			t.Errorf("no writable mount at %s (GCS_DB_PATH's directory)", dbDir)
		}
	})

	t.Run("config and secrets reach the pod", func(t *testing.T) {
		var refs []string
		for _, e := range c.EnvFrom {
			switch {
			case e.ConfigMapRef != nil:
				refs = append(refs, e.ConfigMapRef.Name)
			case e.SecretRef != nil:
				refs = append(refs, e.SecretRef.Name)
			}
		}
		// The generators add a content hash to the names; the Deployment
		// must refer to the hashed names, or a config change rolls nothing.
		if !slices.Contains(refs, r.configMap.Name) || !slices.Contains(refs, r.secret.Name) {
			t.Errorf("envFrom %v, want %s and %s", refs, r.configMap.Name, r.secret.Name)
		}
		for _, k := range []string{"REDIS_URL", "ADMIN_TOKEN", "WEBHOOK_SECRET", "QDRANT_API_KEY", "OPENAI_API_KEY"} {
			if _, ok := r.secret.Data[k]; !ok {
				if _, ok := r.secret.StringData[k]; !ok {
					t.Errorf("Secret lacks %s", k)
				}
			}
			if _, ok := r.configMap.Data[k]; ok {
				t.Errorf("secret %s is in the ConfigMap", k)
			}
		}
	})

	t.Run("selectors match the pods", func(t *testing.T) {
		podLabels := labels.Set(d.Spec.Template.Labels)
		if !labels.SelectorFromSet(d.Spec.Selector.MatchLabels).Matches(podLabels) {
			t.Errorf("Deployment selector %v misses its pods %v", d.Spec.Selector.MatchLabels, podLabels)
		}
		if !labels.SelectorFromSet(r.service.Spec.Selector).Matches(podLabels) {
			t.Errorf("Service selector %v misses the pods", r.service.Spec.Selector)
		}
		if !labels.SelectorFromSet(r.pdb.Spec.Selector.MatchLabels).Matches(podLabels) {
			t.Errorf("PDB selector %v misses the pods", r.pdb.Spec.Selector.MatchLabels)
		}
		if !labels.SelectorFromSet(r.netpol.Spec.PodSelector.MatchLabels).Matches(podLabels) {
			t.Errorf("NetworkPolicy selector %v misses the pods", r.netpol.Spec.PodSelector.MatchLabels)
		}
		if r.hpa.Spec.ScaleTargetRef.Kind != "Deployment" || r.hpa.Spec.ScaleTargetRef.Name != d.Name {
			t.Errorf("HPA targets %+v, want Deployment %s", r.hpa.Spec.ScaleTargetRef, d.Name)
		}
		if r.hpa.Spec.MinReplicas == nil || *r.hpa.Spec.MinReplicas < 2 || r.pdb.Spec.MinAvailable == nil ||
			r.pdb.Spec.MinAvailable.IntValue() >= int(*r.hpa.Spec.MinReplicas) {
			t.Errorf("HPA min %v and PDB minAvailable %v: a voluntary eviction must stay possible", r.hpa.Spec.MinReplicas, r.pdb.Spec.MinAvailable)
		}
		if r.service.Spec.Ports[0].TargetPort.String() != c.Ports[0].Name {
			t.Errorf("Service targets port %s, container port is %s", r.service.Spec.Ports[0].TargetPort.String(), c.Ports[0].Name)
		}
	})
}

// TestStrictDecodeRefusesUnknownFields shows the decoding can fail: a
// misplaced field is reported, not dropped.
func TestStrictDecodeRefusesUnknownFields(t *testing.T) {
	raw, err := yaml.YAMLToJSON([]byte("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: x}\nspec:\n  replicas: 1\n  terminationGracePeriodSeconds: 30\n"))
	if err != nil {
		t.Fatal(err)
	}
	err = strict(raw, &appsv1.Deployment{})
	if err == nil || !strings.Contains(err.Error(), "terminationGracePeriodSeconds") {
		t.Fatalf("misplaced field: err = %v", err)
	}
}

// TestKubectlAgrees renders with the kubectl on PATH too, when there is
// one, and expects the same objects as the library.
func TestKubectlAgrees(t *testing.T) {
	kubectl, err := exec.LookPath("kubectl")
	if err != nil {
		t.Log("no kubectl on PATH: the library rendering above is the check")
		return
	}
	out, err := exec.Command(kubectl, "kustomize", ".").Output()
	if err != nil {
		t.Fatalf("kubectl kustomize: %v", err)
	}
	var kinds []string
	for doc := range strings.SplitSeq(string(out), "\n---\n") {
		var obj struct {
			Kind     string `json:"kind"`
			Metadata struct {
				Name string `json:"name"`
			} `json:"metadata"`
		}
		if err := yaml.Unmarshal([]byte(doc), &obj); err != nil {
			t.Fatal(err)
		}
		kinds = append(kinds, fmt.Sprintf("%s/%s", obj.Kind, obj.Metadata.Name))
	}
	r := render(t)
	names := map[string]string{"ConfigMap": r.configMap.Name, "Secret": r.secret.Name}
	for _, k := range kinds {
		kind, name, _ := strings.Cut(k, "/")
		if want, ok := names[kind]; ok && name != want {
			t.Errorf("kubectl named the %s %s, the library %s", kind, name, want)
		}
	}
	if len(kinds) != len(r.kinds) {
		t.Errorf("kubectl rendered %d objects, the library %d", len(kinds), len(r.kinds))
	}
}
