package dev.rowflow.embedded;

import org.apache.hbase.thirdparty.io.netty.buffer.AbstractByteBufAllocator;
import org.apache.hbase.thirdparty.io.netty.buffer.ByteBuf;
import org.apache.hbase.thirdparty.io.netty.buffer.UnpooledByteBufAllocator;

/**
 * The embedded region server's RPC buffers: every request read into an unpooled heap buffer, which
 * is never freed or reused while anything still points into it (the garbage collector frees it).
 *
 * <p>Why not HBase's own {@code hbase.netty.rpcserver.allocator=heap}: its
 * {@code HeapByteBufAllocator} leaves Netty's {@code ioBuffer()} alone, and Netty reads every
 * socket into {@code ioBuffer()}, a <em>pooled direct</em> buffer whenever Unsafe is available. A
 * request's cells therefore live in pooled off-heap memory, released when the call completes --
 * and HBase 2.6 reads some of them after that: an {@code Increment} of a cell that does not exist
 * yet returns the request's own delta cell as its result ({@code HRegion.reckonDelta}), and
 * {@code CallRunner} releases the request ({@code call.cleanup()}) before it encodes the result
 * into the response ({@code call.setResponse}). When the pool had freed that chunk in between, the
 * handler's copy read unmapped memory: a SIGSEGV in {@code jbyte_disjoint_arraycopy} on an
 * {@code RpcServer...handler} thread, now and then in a demo run. A pooled heap buffer would not
 * crash but could hand the client another request's bytes. Memory that no one frees under a
 * reader removes both.
 *
 * <p>HBase instantiates it by name ({@code hbase.netty.rpcserver.allocator}); it needs Netty's NIO
 * transport ({@code hbase.netty.nativetransport=false}): the JDK's socket reads take heap buffers,
 * Netty's native epoll reads ({@code Socket.recv}) take only direct ones.
 */
public final class HeapRequestBuffers extends AbstractByteBufAllocator {
    private final UnpooledByteBufAllocator unpooled = new UnpooledByteBufAllocator(false);

    public HeapRequestBuffers() {
        super(false);
    }

    @Override
    public ByteBuf ioBuffer() {
        return heapBuffer();
    }

    @Override
    public ByteBuf ioBuffer(int initialCapacity) {
        return heapBuffer(initialCapacity);
    }

    @Override
    public ByteBuf ioBuffer(int initialCapacity, int maxCapacity) {
        return heapBuffer(initialCapacity, maxCapacity);
    }

    @Override
    protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
        return unpooled.heapBuffer(initialCapacity, maxCapacity);
    }

    /** Only for a caller that asks for direct memory by name; Netty's reads take {@link #ioBuffer}. */
    @Override
    protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
        return unpooled.directBuffer(initialCapacity, maxCapacity);
    }

    @Override
    public boolean isDirectBufferPooled() {
        return false;
    }
}
