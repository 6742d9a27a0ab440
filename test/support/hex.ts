/** Hex and addresses of fixtures and devnet manifests, decoded as the service decodes its inputs. */
import { Option } from "effect"
import { type Address, addressOption, type Hex, hexOption } from "../../schema/Chain.js"

export const hexOf = (text: string): Hex => Option.getOrThrow(hexOption(text))
export const addressOf = (text: string): Address => Option.getOrThrow(addressOption(text))
