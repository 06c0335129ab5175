package dev.rowflow.embedded.load;

import dev.rowflow.events.Address;
import dev.rowflow.events.Customer;
import dev.rowflow.events.LineItem;
import dev.rowflow.events.Order;
import dev.rowflow.events.ShippingLocation;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Realistic customers and orders for the demo and tests: customer numbers {@code C0000001...},
 * names, US addresses and one or two phone numbers; orders {@code O00000001...} of a random
 * customer with 1-4 shipping locations of 1-10 line items each, order times a fixed interval
 * apart (one second unless told).
 *
 * <p>Deterministic: the same seed gives the same customers and orders. Order numbers are unique
 * across all customers.
 */
public final class OrderGenerator {
    private static final List<String> FIRST = List.of("Ada", "Alan", "Grace", "Edsger", "Barbara", "Donald", "Frances",
            "John", "Margaret", "Ken", "Radia", "Leslie");
    private static final List<String> LAST = List.of("Lovelace", "Turing", "Hopper", "Dijkstra", "Liskov", "Knuth",
            "Allen", "Backus", "Hamilton", "Thompson", "Perlman", "Lamport");
    private static final List<String[]> CITIES = List.of(new String[] {"Springfield", "IL", "627"},
            new String[] {"Austin", "TX", "787"}, new String[] {"Portland", "OR", "972"},
            new String[] {"Boston", "MA", "021"}, new String[] {"Denver", "CO", "802"},
            new String[] {"Madison", "WI", "537"});
    private static final List<String> STREETS = List.of("Main St", "Oak Ave", "Elm St", "Pine Rd", "Lake Dr", "Hill Ct");

    private final SplittableRandom random;
    private final int customerCount;
    private int nextOrder = 1;
    private final long intervalMillis;
    private long nextOrderTime;

    public OrderGenerator(long seed, int customerCount, long startTime) {
        this(seed, customerCount, startTime, 1000);
    }

    /** @param intervalMillis order time between two orders */
    public OrderGenerator(long seed, int customerCount, long startTime, long intervalMillis) {
        if (customerCount < 1) {
            throw new IllegalArgumentException("customerCount must be >= 1, got " + customerCount);
        }
        this.random = new SplittableRandom(seed);
        this.customerCount = customerCount;
        this.nextOrderTime = startTime;
        this.intervalMillis = intervalMillis;
    }

    public static String customerNumber(int i) {
        return String.format("C%07d", i);
    }

    /** Customer {@code i} (1-based); the same {@code i} gives the same customer for every seed. */
    public static Customer customer(int i) {
        SplittableRandom r = new SplittableRandom(i);
        String[] city = CITIES.get(r.nextInt(CITIES.size()));
        List<String> phones = new ArrayList<>();
        for (int p = 0, n = 1 + r.nextInt(2); p < n; p++) {
            phones.add(String.format("+1-555-%04d", r.nextInt(10_000)));
        }
        return Customer.newBuilder()
                .setCustomerNumber(customerNumber(i))
                .setName(FIRST.get(r.nextInt(FIRST.size())) + " " + LAST.get(r.nextInt(LAST.size())))
                .setAddress(new Address((1 + r.nextInt(999)) + " " + STREETS.get(r.nextInt(STREETS.size())), city[0],
                        city[1], city[2] + String.format("%02d", r.nextInt(100))))
                .setPhoneNumbers(phones)
                .setEmail(i % 3 == 0 ? null : "customer" + i + "@example.com")
                .build();
    }

    /** All customers, 1 to {@code customerCount}. */
    public List<Customer> customers() {
        List<Customer> customers = new ArrayList<>(customerCount);
        for (int i = 1; i <= customerCount; i++) {
            customers.add(customer(i));
        }
        return customers;
    }

    public Order nextOrder() {
        int customer = 1 + random.nextInt(customerCount);
        List<ShippingLocation> locations = new ArrayList<>();
        for (int l = 0, n = 1 + random.nextInt(4); l < n; l++) {
            String[] city = CITIES.get(random.nextInt(CITIES.size()));
            List<LineItem> items = new ArrayList<>();
            for (int i = 0, m = 1 + random.nextInt(10); i < m; i++) {
                items.add(new LineItem(String.format("I-%05d", random.nextInt(50_000)), 1 + random.nextInt(5),
                        99L + random.nextInt(50_000)));
            }
            locations.add(new ShippingLocation((1 + random.nextInt(999)) + " " + STREETS.get(random.nextInt(STREETS.size())),
                    random.nextInt(4) == 0 ? "Apt " + (1 + random.nextInt(40)) : null, city[0], city[1],
                    city[2] + String.format("%02d", random.nextInt(100)), items));
        }
        Order order = Order.newBuilder()
                .setOrderNumber(String.format("O%08d", nextOrder++))
                .setCustomerNumber(customerNumber(customer))
                .setOrderTime(Instant.ofEpochMilli(nextOrderTime))
                .setShippingLocations(locations)
                .build();
        nextOrderTime += intervalMillis;
        return order;
    }
}
