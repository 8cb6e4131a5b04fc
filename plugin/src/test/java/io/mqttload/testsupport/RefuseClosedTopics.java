package io.mqttload.testsupport;

import com.hivemq.extension.sdk.api.ExtensionMain;
import com.hivemq.extension.sdk.api.auth.SubscriptionAuthorizer;
import com.hivemq.extension.sdk.api.packets.subscribe.SubackReasonCode;
import com.hivemq.extension.sdk.api.parameter.ExtensionStartInput;
import com.hivemq.extension.sdk.api.parameter.ExtensionStartOutput;
import com.hivemq.extension.sdk.api.parameter.ExtensionStopInput;
import com.hivemq.extension.sdk.api.parameter.ExtensionStopOutput;
import com.hivemq.extension.sdk.api.services.Services;

/**
 * A HiveMQ CE extension that refuses every subscription under {@code closed/} (NOT_AUTHORIZED, "closed to tests"),
 * as an authorisation policy would, and grants every other one.
 */
public final class RefuseClosedTopics implements ExtensionMain {
    @Override
    public void extensionStart(ExtensionStartInput input, ExtensionStartOutput output) {
        Services.securityRegistry().setAuthorizerProvider(provider -> (SubscriptionAuthorizer) (in, out) -> {
            if (in.getSubscription().getTopicFilter().startsWith("closed/")) {
                out.failAuthorization(SubackReasonCode.NOT_AUTHORIZED, "closed to tests");
            } else {
                out.authorizeSuccessfully();
            }
        });
    }

    @Override
    public void extensionStop(ExtensionStopInput input, ExtensionStopOutput output) {
        // Nothing to release: the authorizer goes with the broker.
    }
}
