package io.mqttload.testsupport.memory;

import java.util.Random;

/**
 * Which of the deliveries a fault rule matches it takes: every one, every n-th, the next n, or a fraction drawn from a
 * seeded {@link Random} (the same seed takes the same deliveries, so a test can assert exact counts). Asked on the
 * broker's event loop only, once per delivery the rule's filter matches.
 */
public abstract class Which {
    abstract boolean take();

    /** Every matching delivery. */
    public static Which all() {
        return new Which() {
            @Override
            boolean take() {
                return true;
            }
        };
    }

    /** The n-th, 2n-th, ... matching delivery. */
    public static Which every(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("every n-th needs n >= 1, not " + n);
        }
        return new Which() {
            private long seen;

            @Override
            boolean take() {
                return ++seen % n == 0;
            }
        };
    }

    /** The next {@code n} matching deliveries, then none. */
    public static Which next(int n) {
        return new Which() {
            private int left = n;

            @Override
            boolean take() {
                if (left <= 0) {
                    return false;
                }
                left--;
                return true;
            }
        };
    }

    /** Each matching delivery with probability {@code fraction}, drawn from a {@link Random} seeded with {@code seed}. */
    public static Which fraction(double fraction, long seed) {
        if (!(fraction >= 0 && fraction <= 1)) {
            throw new IllegalArgumentException("a fraction is between 0 and 1, not " + fraction);
        }
        Random random = new Random(seed);
        return new Which() {
            @Override
            boolean take() {
                return random.nextDouble() < fraction;
            }
        };
    }
}
