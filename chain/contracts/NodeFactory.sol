// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// @title NodeFactory: nodes minted for verified payments, credited in rounds, withdrawn by owners.
/// @notice The contract never sees a payment: the operator's minter mints a node for each payment
/// it verified off chain, naming the payment transaction as `paymentRef`, so a payment can never
/// mint twice. The distributor credits nodes in rounds; owners withdraw their balance to any
/// address at any time, paused or not.
///
/// @dev Rounds at constant gas (`distribute`). Each tier has a weight, its payoutBps (`weightBps`),
/// which only the owner sets (`setTierWeight`), and an accumulator `perNode`: the wei credited so
/// far to each node of the tier by rounds. The distributor never names weights: a round credits
/// with the weights the contract holds, and names the `weightsVersion` it was priced for (every
/// weight change bumps it), so a round priced off chain before a weight change reverts
/// (WeightsChanged) instead of crediting other amounts than its sender wrote down. A round raises the accumulator of every tier that has nodes by `inc`, a whole number
/// of wei, so its cost depends on the number of tiers and never on the number of nodes:
///   fixed: inc_t = floor(base * weightBps_t / 10000), the base amount times the tier's multiplier;
///   pool:  u = floor((pool + poolCarry) / W), W = sum over tiers of nodes_t * weightBps_t, and
///          inc_t = u * weightBps_t; the remainder (pool + poolCarry - u * W < W) becomes the new
///          poolCarry, added to the next pool round's pool, so over time the pools are paid in full.
/// A node records its tier's accumulator when it is minted (`Meta.joined`) and so joins the rounds
/// that start after its mint; nodeInfo's credited total is its share, perNode_t - joined. A weight
/// change only alters the `inc` of later rounds: what was credited sits in the accumulator, in wei.
///
/// Exactness: the round adds total = sum over tiers of nodes_t * inc_t to totalOutstanding, where
/// nodes_t counts the nodes of tier t minted before the round, exactly those whose share grows by
/// inc_t. Summing over nodes, sum(perNode_t - joined) = sum over rounds of the rounds' totals, with
/// no rounding per node: every rounding happens once per round, in inc (fixed) or u (pool), and its
/// dust is never credited (fixed: the distributor pays only the total; pool: it stays in
/// poolCarry, held by the contract but not owed). So totalOutstanding is, to the wei, the sum over
/// nodes of credited - withdrawn, and the solvency check at each round keeps it covered.
contract NodeFactory {
    /// @dev Written at mint (and its owner at a transfer). `joined` is the tier's accumulator at
    /// mint: it shares the slot, so the checkpoint costs the mint no storage write of its own, and
    /// a node's credited total needs no slot of its own at all.
    struct Meta {
        address owner;
        uint8 tier;
        uint88 joined;
    }

    /// @dev One slot per tier, read and written once by a round. uint88 bounds what one node can be
    /// credited by rounds over the contract's life at about 3.1e8 ether.
    struct Tier {
        uint88 perNode; // wei credited by rounds to each node of the tier, since the first round
        uint64 nodes; // minted so far; never decreases
        uint32 weightBps; // payoutBps, set by the owner: the multiplier of the base (fixed) or the share (pool)
        uint16 next; // the tier listed before it, plus one; 0 ends the list
    }

    enum Mode {
        Fixed,
        Pool
    }

    /// @notice One node mintBatch is asked for: a node of `tier` to `to` for payment `paymentRef`.
    struct MintOrder {
        address to;
        uint8 tier;
        bytes32 paymentRef;
    }

    /// @notice Why an order of mintBatch minted nothing: mint's revert for it, as a value.
    enum Skip {
        None,
        ZeroAddress,
        PaymentRefUsed,
        WalletFull
    }

    address public owner;
    address public minter;
    address public distributor;
    bool public paused;
    uint32 public maxPerWallet;
    /// @dev The list of tiers with nodes, newest first, as tier id + 1 (0: none), linked through
    /// Tier.next: a round walks it. It shares a slot that mint reads anyway, so listing a tier
    /// costs its first mint no new storage slot besides the tier's own.
    uint16 internal tierHead;
    /// @notice Bumped by every setTierWeight: distribute names the version its round was priced
    /// for. It fills the slot that distribute reads for `distributor` and `tierHead` anyway, so
    /// the check costs a round no storage read of its own.
    uint40 public weightsVersion;

    /// @notice The highest weight a tier may have: 10× the base (fixed) or ten shares (pool).
    uint32 public constant MAX_WEIGHT_BPS = 100_000;

    /// @notice Number of nodes minted; node ids run from 1 to nodeCount.
    uint256 public nodeCount;
    /// @notice What the contract owes: the sum over nodes of credited - withdrawn.
    uint256 public totalOutstanding;

    /// @dev Everything ever withdrawn from each node: a node's only slot besides its Meta, first
    /// written by its first withdrawal.
    mapping(uint256 => uint256) private withdrawnOf;
    mapping(uint256 => Meta) private metas;
    mapping(address => uint256[]) private owned;
    mapping(bytes32 => bool) public paymentRefUsed;
    mapping(uint256 => bool) public roundUsed;

    /// @notice Each tier's accumulator, node count and weight (and its link in the tier list).
    mapping(uint8 => Tier) public tiers;
    /// @notice Pool wei that no round has credited yet (rounding remainders, or a pool round when no
    /// node had weight); the next pool round adds it to its pool.
    uint256 public poolCarry;

    event NodeMinted(uint256 indexed id, address indexed owner, uint8 tier, bytes32 paymentRef);
    event MintSkipped(bytes32 indexed paymentRef, address indexed owner, uint8 tier, Skip reason);
    event Withdrawn(uint256 indexed id, address indexed owner, address to, uint256 amount);
    event Transferred(uint256 indexed id, address indexed from, address indexed to);
    event Paused(bool paused);
    event RolesChanged(address owner, address minter, address distributor);
    event MaxPerWalletChanged(uint32 maxPerWallet);
    event TierWeightChanged(uint8 indexed tier, uint32 weightBps, uint40 weightsVersion);
    event Distributed(uint256 indexed roundId, Mode mode, uint256 amount, uint256 nodes, uint256 total, uint256 carry);

    error NotOwner();
    error NotMinter();
    error NotDistributor();
    error NotNodeOwner();
    error MintingPaused();
    error PaymentRefUsed();
    error WalletFull();
    error RoundUsed();
    error UnknownNode();
    error ZeroAddress();
    error InsufficientBalance();
    error Insolvent();
    error TransferFailed();
    error Reentered();
    error AmountTooLarge();
    error NodeCountChanged();
    error WeightsChanged();
    error WeightTooLarge();

    modifier onlyOwner() {
        if (msg.sender != owner) revert NotOwner();
        _;
    }

    /// @dev Lives in transient storage: a re-entered withdraw reverts, at almost no gas.
    bool private transient entered;

    modifier nonReentrant() {
        if (entered) revert Reentered();
        entered = true;
        _;
        entered = false;
    }

    constructor(address minter_, address distributor_, uint32 maxPerWallet_) {
        if (minter_ == address(0) || distributor_ == address(0)) revert ZeroAddress();
        owner = msg.sender;
        minter = minter_;
        distributor = distributor_;
        maxPerWallet = maxPerWallet_;
        emit RolesChanged(msg.sender, minter_, distributor_);
        emit MaxPerWalletChanged(maxPerWallet_);
    }

    /// @notice Mints a node of `tier` to `to` for the payment `paymentRef` (its transaction hash).
    function mint(address to, uint8 tier, bytes32 paymentRef) external returns (uint256 id) {
        if (msg.sender != minter) revert NotMinter();
        if (paused) revert MintingPaused();
        Skip skip = mintable(to, paymentRef, maxPerWallet);
        if (skip == Skip.ZeroAddress) revert ZeroAddress();
        if (skip == Skip.PaymentRefUsed) revert PaymentRefUsed();
        if (skip == Skip.WalletFull) revert WalletFull();
        id = ++nodeCount;
        place(id, to, tier, paymentRef);
    }

    /// @notice Mints each order as mint would, in order, in one transaction: what a transaction
    /// costs besides its nodes (its intrinsic gas, the roles, the node count and the tiers' slots)
    /// is paid once. An order mint would refuse (a payment reference used before, in this batch
    /// too; a full wallet; the zero address) mints nothing and emits MintSkipped with why; the
    /// others are minted. Returns the first new id and how many were minted.
    function mintBatch(MintOrder[] calldata orders) external returns (uint256 firstId, uint256 minted) {
        if (msg.sender != minter) revert NotMinter();
        if (paused) revert MintingPaused();
        uint256 count = nodeCount;
        uint32 cap = maxPerWallet;
        firstId = count + 1;
        for (uint256 i = 0; i < orders.length; i++) {
            MintOrder calldata o = orders[i];
            Skip skip = mintable(o.to, o.paymentRef, cap);
            if (skip != Skip.None) {
                emit MintSkipped(o.paymentRef, o.to, o.tier, skip);
                continue;
            }
            place(++count, o.to, o.tier, o.paymentRef);
        }
        minted = count + 1 - firstId;
        nodeCount = count;
    }

    /// @dev Whether a node may be minted to `to` for `paymentRef` with at most `cap` a wallet.
    function mintable(address to, bytes32 paymentRef, uint32 cap) private view returns (Skip) {
        if (to == address(0)) return Skip.ZeroAddress;
        if (paymentRefUsed[paymentRef]) return Skip.PaymentRefUsed;
        if (owned[to].length >= cap) return Skip.WalletFull;
        return Skip.None;
    }

    /// @dev Writes node `id` (nodeCount is the caller's to keep) and uses its payment reference.
    function place(uint256 id, address to, uint8 tier, bytes32 paymentRef) private {
        paymentRefUsed[paymentRef] = true;
        metas[id] = Meta({owner: to, tier: tier, joined: addToTier(tier, 1)});
        owned[to].push(id);
        emit NodeMinted(id, to, tier, paymentRef);
    }

    /// @notice Credits round `roundId` to every node minted before it, `nodes` of them, with the
    /// tiers' weights the contract holds, which version `version` of the weights must be: the call
    /// reverts with NodeCountChanged when nodeCount differs and WeightsChanged when weightsVersion
    /// does, so the round credits exactly the nodes and weights its sender priced it with.
    /// `amount` is the base per node in mode Fixed (times the tier's weight / 10000) and the pool
    /// in mode Pool (split pro rata weight, with poolCarry). The round id is accepted once; the
    /// value sent plus the contract's surplus must cover the round. Its gas depends on the number
    /// of tiers only.
    function distribute(uint256 roundId, Mode mode, uint256 amount, uint256 nodes, uint64 version) external payable {
        if (msg.sender != distributor) revert NotDistributor();
        if (roundUsed[roundId]) revert RoundUsed();
        if (nodes != nodeCount) revert NodeCountChanged();
        if (version != weightsVersion) revert WeightsChanged();
        if (amount > type(uint128).max) revert AmountTooLarge();
        roundUsed[roundId] = true;

        uint256 head = tierHead;
        uint256 unit; // Pool: wei per unit of weight
        uint256 carry = poolCarry;
        if (mode == Mode.Pool) {
            uint256 weight;
            for (uint256 i = head; i != 0;) {
                Tier storage t = tiers[uint8(i - 1)];
                weight += uint256(t.nodes) * t.weightBps;
                i = t.next;
            }
            uint256 pool = amount + carry;
            if (weight > 0) unit = pool / weight;
            carry = pool - unit * weight;
            poolCarry = carry;
        }
        uint256 total;
        for (uint256 i = head; i != 0;) {
            Tier storage t = tiers[uint8(i - 1)];
            uint32 w = t.weightBps;
            uint256 inc = mode == Mode.Fixed ? amount * w / 10_000 : unit * w;
            if (inc > 0) {
                uint256 perNode = t.perNode + inc;
                if (perNode > type(uint88).max) revert AmountTooLarge();
                t.perNode = uint88(perNode);
                total += inc * t.nodes;
            }
            i = t.next;
        }
        uint256 outstanding = totalOutstanding + total;
        if (address(this).balance < outstanding) revert Insolvent();
        totalOutstanding = outstanding;
        emit Distributed(roundId, mode, amount, nodes, total, carry);
    }

    /// @notice The tiers that have nodes, newest first.
    function tierList() external view returns (uint8[] memory list) {
        uint256 n;
        for (uint256 i = tierHead; i != 0; i = tiers[uint8(i - 1)].next) ++n;
        list = new uint8[](n);
        n = 0;
        for (uint256 i = tierHead; i != 0; i = tiers[uint8(i - 1)].next) list[n++] = uint8(i - 1);
    }

    /// @dev Counts `count` (> 0) new nodes into `tier`, listing the tier at its first; returns the
    /// tier's accumulator, the new nodes' checkpoint.
    function addToTier(uint8 tier, uint64 count) internal returns (uint88) {
        Tier storage t = tiers[tier];
        if (t.nodes == 0) {
            t.next = tierHead;
            tierHead = uint16(tier) + 1;
        }
        t.nodes += count;
        return t.perNode;
    }

    /// @notice Pays `amount` of node `id`'s balance to `to`. Only the node's owner may; never
    /// blocked by the pause.
    function withdraw(uint256 id, address to, uint256 amount) external nonReentrant {
        if (id == 0 || id > nodeCount) revert UnknownNode();
        Meta memory m = metas[id];
        address nodeOwner = m.owner;
        if (msg.sender != nodeOwner) revert NotNodeOwner();
        if (to == address(0)) revert ZeroAddress();
        uint256 withdrawn = withdrawnOf[id];
        if (amount > creditedTotal(m) - withdrawn) revert InsufficientBalance();

        withdrawnOf[id] = withdrawn + amount;
        totalOutstanding -= amount;
        emit Withdrawn(id, nodeOwner, to, amount);
        (bool ok,) = to.call{value: amount}("");
        if (!ok) revert TransferFailed();
    }

    /// @notice Hands node `id` to `to`, with its balance. Only its owner may; never blocked by the
    /// pause; `to` may not exceed the total per wallet.
    function transfer(uint256 id, address to) external {
        if (id == 0 || id > nodeCount) revert UnknownNode();
        Meta storage m = metas[id];
        if (msg.sender != m.owner) revert NotNodeOwner();
        if (to == address(0)) revert ZeroAddress();
        uint256[] storage dst = owned[to];
        if (dst.length >= maxPerWallet) revert WalletFull();
        uint256[] storage src = owned[msg.sender];
        uint256 last = src.length - 1;
        for (uint256 i; i <= last; ++i) {
            if (src[i] == id) {
                src[i] = src[last];
                src.pop();
                break;
            }
        }
        dst.push(id);
        m.owner = to;
        emit Transferred(id, msg.sender, to);
    }

    /// @notice The nodes held by `wallet`, in minting order (a transfer moves the last one into
    /// the place of the node that left).
    function nodesOf(address wallet) external view returns (uint256[] memory) {
        return owned[wallet];
    }

    /// @notice One node: owner, tier, balance, credited and withdrawn totals.
    function nodeInfo(uint256 id)
        external
        view
        returns (address nodeOwner, uint8 tier, uint256 balance, uint256 credited, uint256 withdrawn)
    {
        if (id == 0 || id > nodeCount) revert UnknownNode();
        Meta memory m = metas[id];
        uint256 c = creditedTotal(m);
        uint256 w = withdrawnOf[id];
        return (m.owner, m.tier, c - w, c, w);
    }

    /// @notice Everything ever withdrawn from node `id`.
    function totalWithdrawnByNode(uint256 id) external view returns (uint256) {
        if (id == 0 || id > nodeCount) revert UnknownNode();
        return withdrawnOf[id];
    }

    /// @dev What the node was credited in all: its tier's rounds since its mint.
    function creditedTotal(Meta memory m) private view returns (uint256) {
        return tiers[m.tier].perNode - m.joined;
    }

    /// @notice Whether the contract's balance covers what it owes.
    function isSolvent() external view returns (bool) {
        return address(this).balance >= totalOutstanding;
    }

    /// @notice Pausing stops minting only: withdrawals and rounds go on.
    function setPaused(bool paused_) external onlyOwner {
        paused = paused_;
        emit Paused(paused_);
    }

    function setRoles(address owner_, address minter_, address distributor_) external onlyOwner {
        if (owner_ == address(0) || minter_ == address(0) || distributor_ == address(0)) revert ZeroAddress();
        owner = owner_;
        minter = minter_;
        distributor = distributor_;
        emit RolesChanged(owner_, minter_, distributor_);
    }

    /// @notice Sets `tier`'s payoutBps (at most MAX_WEIGHT_BPS), from the next round on: what
    /// rounds credited before stays. Only the owner may: the operator's service, which prices and
    /// sends the rounds, holds no key that can change what a node earns. Bumps weightsVersion, so
    /// a round priced with the old weights reverts (WeightsChanged) and is priced again.
    function setTierWeight(uint8 tier, uint32 weightBps) external onlyOwner {
        if (weightBps > MAX_WEIGHT_BPS) revert WeightTooLarge();
        tiers[tier].weightBps = weightBps;
        uint40 version = weightsVersion + 1;
        weightsVersion = version;
        emit TierWeightChanged(tier, weightBps, version);
    }

    function setMaxPerWallet(uint32 maxPerWallet_) external onlyOwner {
        maxPerWallet = maxPerWallet_;
        emit MaxPerWalletChanged(maxPerWallet_);
    }

    /// @notice Funds the contract: a surplus over what it owes can pay a later round.
    receive() external payable {}
}
