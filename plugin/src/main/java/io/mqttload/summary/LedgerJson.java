package io.mqttload.summary;

import java.io.IOException;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;

import io.mqttload.delivery.DeliveryCheck;
import io.mqttload.delivery.LedgerCodec;

/**
 * The delivery ledger in a summary of format 4: its counts for people, its content as {@link LedgerCodec}'s bytes in
 * base64. At format 3 the ledger was a JSON object per stream and per (scope, stream) entry, 15 MB for an engine with
 * 160,000 streams, nearly all of it saying that nothing was missing.
 */
final class LedgerJson {
    private static final String STREAMS = "streamCount";
    private static final String SCOPES = "scopeCount";
    private static final String ENTRIES = "receivedCount";
    private static final String DATA = "deflated";

    private LedgerJson() {
    }

    static SimpleModule module() {
        return new SimpleModule("compact delivery ledger")
                .addSerializer(DeliveryCheck.Ledger.class, new Writer())
                .addDeserializer(DeliveryCheck.Ledger.class, new Reader());
    }

    private static final class Writer extends StdSerializer<DeliveryCheck.Ledger> {
        private static final long serialVersionUID = 1L;

        Writer() {
            super(DeliveryCheck.Ledger.class);
        }

        @Override
        public void serialize(DeliveryCheck.Ledger ledger, JsonGenerator gen, SerializerProvider provider) throws IOException {
            gen.writeStartObject();
            gen.writeNumberField(STREAMS, ledger.streamCount());
            gen.writeNumberField(SCOPES, ledger.scopeCount());
            gen.writeNumberField(ENTRIES, ledger.receivedCount());
            gen.writeBinaryField(DATA, LedgerCodec.encode(ledger));
            gen.writeEndObject();
        }
    }

    private static final class Reader extends StdDeserializer<DeliveryCheck.Ledger> {
        private static final long serialVersionUID = 1L;

        Reader() {
            super(DeliveryCheck.Ledger.class);
        }

        @Override
        public DeliveryCheck.Ledger deserialize(JsonParser parser, DeserializationContext context) throws IOException {
            JsonNode node = parser.readValueAsTree();
            JsonNode data = node.path(DATA);
            if (!data.isTextual()) {
                throw new IllegalArgumentException("its ledger has no \"" + DATA + "\" data (format 4 carries the ledger"
                        + " there, format 3 as lists of streams and scopes)");
            }
            DeliveryCheck.Ledger ledger = LedgerCodec.decode(data.binaryValue());
            if (ledger.streamCount() != node.path(STREAMS).asLong(-1) || ledger.scopeCount() != node.path(SCOPES).asLong(-1)
                    || ledger.receivedCount() != node.path(ENTRIES).asLong(-1)) {
                throw new IllegalArgumentException("its ledger's data holds " + ledger.streamCount() + " streams, "
                        + ledger.scopeCount() + " scopes and " + ledger.receivedCount() + " received entries, and its"
                        + " counts say " + node.path(STREAMS) + ", " + node.path(SCOPES) + " and " + node.path(ENTRIES));
            }
            return ledger;
        }
    }
}
