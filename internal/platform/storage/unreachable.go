package storage

import (
	"errors"
	"io"
	"net"
	"syscall"

	smithyhttp "github.com/aws/smithy-go/transport/http"
)

// Unreachable reports whether err says that the object store could not be
// reached or dropped the connection (the request was never answered),
// rather than that it refused the request: the same work may succeed
// shortly.
func Unreachable(err error) bool {
	var sendErr *smithyhttp.RequestSendError
	var netErr *net.OpError
	switch {
	case err == nil:
		return false
	case errors.As(err, &sendErr), errors.As(err, &netErr):
		return true
	}
	return errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.EPIPE) || errors.Is(err, io.ErrUnexpectedEOF)
}
