// Command validate-manifests checks Kubernetes objects without a cluster: it decodes every document of a YAML stream
// (what helm template prints) into the API type its apiVersion and kind name, with the API server's strict decoding,
// so an unknown or duplicate field, a value of the wrong type and a kind the API does not have all fail.
//
//	helm template mqtt-load deploy/helm/mqtt-load | go run ./deploy/validate-manifests
//
// It prints one line per object ("valid <apiVersion> <kind> <name>") and one per failure ("invalid ..."), and exits 1
// when any document failed, 2 when the stream holds no object or cannot be read.
package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/kubernetes/scheme"
)

func main() {
	valid, invalid, err := validate(os.Stdin, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "validate-manifests:", err)
		os.Exit(2)
	}
	if valid+invalid == 0 {
		fmt.Fprintln(os.Stderr, "validate-manifests: no Kubernetes object in the input")
		os.Exit(2)
	}
	if invalid > 0 {
		os.Exit(1)
	}
}

// validate decodes each document of in with every built-in API group registered (client-go's scheme, the types of
// the Kubernetes version client-go is built for) and reports each on out.
func validate(in io.Reader, out io.Writer) (valid, invalid int, err error) {
	decoder := serializer.NewCodecFactory(scheme.Scheme, serializer.EnableStrict).UniversalDeserializer()
	documents := utilyaml.NewYAMLReader(bufio.NewReader(in))
	for {
		document, readErr := documents.Read()
		if errors.Is(readErr, io.EOF) {
			return valid, invalid, nil
		}
		if readErr != nil {
			return valid, invalid, readErr
		}
		if isEmpty(document) {
			continue
		}
		source := sourceOf(document)
		object, gvk, decodeErr := decoder.Decode(document, nil, nil)
		if decodeErr == nil {
			decodeErr = requireName(object)
		}
		if decodeErr != nil {
			invalid++
			fmt.Fprintf(out, "invalid %s: %v\n", source, decodeErr)
			continue
		}
		valid++
		name, _ := meta.NewAccessor().Name(object)
		fmt.Fprintf(out, "valid %s %s %s\n", gvk.GroupVersion(), gvk.Kind, name)
	}
}

// requireName refuses an object without metadata.name, which the API server would refuse too.
func requireName(object runtime.Object) error {
	name, err := meta.NewAccessor().Name(object)
	if err != nil {
		return err
	}
	if name == "" {
		return errors.New("metadata.name is empty")
	}
	return nil
}

// isEmpty tells a document of comments and blank lines (helm prints one for a template that renders nothing).
func isEmpty(document []byte) bool {
	for _, line := range strings.Split(string(document), "\n") {
		trimmed := strings.TrimSpace(line)
		if trimmed != "" && !strings.HasPrefix(trimmed, "#") && trimmed != "---" {
			return false
		}
	}
	return true
}

// sourceOf names a document by helm's "# Source:" comment, or by its first line.
func sourceOf(document []byte) string {
	for _, line := range strings.Split(string(document), "\n") {
		if strings.HasPrefix(line, "# Source: ") {
			return strings.TrimPrefix(line, "# Source: ")
		}
	}
	first, _, _ := strings.Cut(strings.TrimSpace(string(document)), "\n")
	return "document starting " + first
}
