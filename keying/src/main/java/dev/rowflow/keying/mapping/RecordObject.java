package dev.rowflow.keying.mapping;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * An object of a record tree read from JSON: its keys and values in document order, in two
 * arrays. The objects of log records are small (a handful to a few dozen keys), so a key is
 * found by a scan that compares cached hash codes before the strings -- cheaper than hashing
 * into a {@code LinkedHashMap} entry per key. Objects of more than {@value #INDEXED_FROM} keys
 * also get a hash index, so a large object is not scanned per lookup.
 *
 * <p>Read-only once built (the map operations that would change it throw); not thread-safe while
 * being built by {@link #add}.
 */
final class RecordObject extends AbstractMap<String, Object> {
    static final int INDEXED_FROM = 16;

    private String[] keys = new String[8];
    private Object[] values = new Object[8];
    private int size;
    private HashMap<String, Integer> index;

    /** Adds a key at the end; false (and nothing added) if the object has it already. */
    boolean add(String key, Object value) {
        if (indexOf(key) >= 0) {
            return false;
        }
        if (size == keys.length) {
            keys = java.util.Arrays.copyOf(keys, size * 2);
            values = java.util.Arrays.copyOf(values, size * 2);
        }
        keys[size] = key;
        values[size] = value;
        if (index != null) {
            index.put(key, size);
        } else if (size + 1 == INDEXED_FROM) {
            index = new HashMap<>(INDEXED_FROM * 4);
            for (int i = 0; i <= size; i++) {
                index.put(keys[i], i);
            }
        }
        size++;
        return true;
    }

    private int indexOf(Object key) {
        if (index != null) {
            Integer at = index.get(key);
            return at == null ? -1 : at;
        }
        if (!(key instanceof String name)) {
            return -1;
        }
        int hash = name.hashCode();
        for (int i = 0; i < size; i++) {
            String k = keys[i];
            if (k == name || (k.hashCode() == hash && k.equals(name))) {
                return i;
            }
        }
        return -1;
    }

    String keyAt(int i) {
        return keys[i];
    }

    Object valueAt(int i) {
        return values[i];
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public Object get(Object key) {
        int i = indexOf(key);
        return i < 0 ? null : values[i];
    }

    @Override
    public boolean containsKey(Object key) {
        return indexOf(key) >= 0;
    }

    @Override
    public Set<Entry<String, Object>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public Iterator<Entry<String, Object>> iterator() {
                return new Iterator<>() {
                    private int next;

                    @Override
                    public boolean hasNext() {
                        return next < size;
                    }

                    @Override
                    public Entry<String, Object> next() {
                        if (next >= size) {
                            throw new NoSuchElementException();
                        }
                        int i = next++;
                        return Map.entry(keys[i], values[i]);
                    }
                };
            }

            @Override
            public int size() {
                return size;
            }
        };
    }
}
