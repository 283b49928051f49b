"""OpenID4VCI 1.0 §11.1 notification requests through the `openid4vci` package of shared/peers (its own pydantic
models, `NotificationRequest`, the one its FastAPI issuer validates requests with, and `CredentialResponse`).

    oid4vci_notification.py validate <json>                      the package reads a request Holdfast's SDK sent
    oid4vci_notification.py make <id> <event> [<description>]    the package writes a request for Holdfast's server
    oid4vci_notification.py credential-response <json>           the package reads Holdfast's credential response

Prints one JSON object, as the scripts of shared/peers do; exits 0 when the package accepted (or wrote) the request,
1 when it refused it. Nothing here is glue but the argument handling.
"""
import json
import sys

from openid4vci.models.credential import CredentialResponse
from openid4vci.models.notification import NotificationRequest
from pydantic import ValidationError


def main(argv):
    if len(argv) >= 2 and argv[0] == "validate":
        try:
            request = NotificationRequest.model_validate_json(argv[1])
        except ValidationError as error:
            print(json.dumps({"accepted": False, "error": str(error)}))
            return 1
        print(json.dumps({"accepted": True, "request": request.to_dict()}))
        return 0
    if len(argv) >= 2 and argv[0] == "credential-response":
        try:
            response = CredentialResponse.model_validate_json(argv[1])
        except ValidationError as error:
            print(json.dumps({"accepted": False, "error": str(error)}))
            return 1
        print(json.dumps({"accepted": True, "notification_id": response.notification_id,
                          "credentials": len(response.credentials or [])}))
        return 0
    if len(argv) >= 3 and argv[0] == "make":
        fields = {"notification_id": argv[1], "event": argv[2]}
        if len(argv) >= 4:
            fields["event_description"] = argv[3]
        try:
            request = NotificationRequest(**fields)
        except ValidationError as error:
            print(json.dumps({"accepted": False, "error": str(error)}))
            return 1
        print(json.dumps({"accepted": True, "body": json.dumps(request.to_dict())}))
        return 0
    print(json.dumps({"accepted": False, "error": "usage: validate <json> | make <id> <event> [<description>] | credential-response <json>"}))
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
