package storage

import (
	"context"
	"errors"
	"fmt"
	"net"
	"syscall"
	"testing"

	smithyhttp "github.com/aws/smithy-go/transport/http"
)

func TestUnreachable(t *testing.T) {
	t.Parallel()
	refused := &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}
	for _, c := range []struct {
		name string
		err  error
		want bool
	}{
		{"nil", nil, false},
		{"a refused dial inside the SDK's send error", &smithyhttp.RequestSendError{Err: refused}, true},
		{"a dropped connection", fmt.Errorf("get: %w", syscall.ECONNRESET), true},
		{"a refused request", errors.New("AccessDenied"), false},
		{"a cancelled request", context.Canceled, false},
	} {
		if got := Unreachable(c.err); got != c.want {
			t.Errorf("%s: Unreachable = %v, want %v", c.name, got, c.want)
		}
	}
}
